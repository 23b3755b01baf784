import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE, MAX_WRITE_BATCH_SIZE } from '../wire/wire-constants';
import type { CommandHandler } from './command-context';
import { LOGICAL_SESSION_TIMEOUT_MINUTES, MAX_WIRE_VERSION, MIN_WIRE_VERSION } from '../base/server-identity';

/**
 * `hello` / `isMaster` / `ismaster`. No `setName` or `topologyVersion`: the driver then treats the
 * server as a Standalone and polls with plain `hello` instead of the streaming protocol; no
 * `compression`, so it never sends OP_COMPRESSED.
 */
export const helloCommand: CommandHandler = (command, context) => ({
  ...(command.helloOk === true ? { helloOk: true } : {}),
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
