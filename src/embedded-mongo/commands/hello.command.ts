import { Long, type Document } from 'bson';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE, MAX_WRITE_BATCH_SIZE } from '../wire/wire-constants';
import type { CommandContext, CommandHandler } from './command-context';
import {
  LOGICAL_SESSION_TIMEOUT_MINUTES,
  MAX_WIRE_VERSION,
  MIN_WIRE_VERSION,
  REPLICA_SET_VERSION,
} from '../base/server-identity';

/**
 * `hello` / `isMaster` / `ismaster`. By default the primary of a one-member replica set (so the
 * driver uses sessions, retryable writes, transactions and change streams as with a real set);
 * its one member is named by the address this connection came in on, which the driver requires
 * to match its seed. Never `topologyVersion`: the monitor then polls with plain `hello` instead of
 * the streaming protocol; no `compression`, so it never sends OP_COMPRESSED.
 */
export const helloCommand: CommandHandler = (command, context) => ({
  ...(command.helloOk === true ? { helloOk: true } : {}),
  ...replicaSetFields(context),
  isWritablePrimary: true,
  ismaster: true,
  maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
  maxMessageSizeBytes: MAX_MESSAGE_SIZE,
  maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
  localTime: new Date(),
  logicalSessionTimeoutMinutes: LOGICAL_SESSION_TIMEOUT_MINUTES,
  connectionId: context.connectionId,
  minWireVersion: MIN_WIRE_VERSION,
  maxWireVersion: MAX_WIRE_VERSION,
  readOnly: false,
  ok: 1,
});

function replicaSetFields(context: CommandContext): Document {
  const replicaSet = context.server.replicaSet;
  if (!replicaSet || !context.changeStreams) return {};
  const me = context.memberAddress;
  const opTime = { ts: context.changeStreams.clock.current(), t: Long.fromNumber(1) };
  const writeDate = new Date(opTime.ts.t * 1000);
  return {
    hosts: [me],
    setName: replicaSet.name,
    setVersion: REPLICA_SET_VERSION,
    secondary: false,
    primary: me,
    me,
    electionId: replicaSet.electionId,
    lastWrite: { opTime, lastWriteDate: writeDate, majorityOpTime: opTime, majorityWriteDate: writeDate },
  };
}
