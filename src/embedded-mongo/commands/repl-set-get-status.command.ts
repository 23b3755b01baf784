import { Long, Timestamp } from 'bson';
import { CommandError } from '../base/command-error';
import { REPLICA_SET_VERSION } from '../base/server-identity';
import type { CommandHandler } from './command-context';

/** `replSetGetStatus`: one member, this server, PRIMARY since it started. A standalone refuses it as mongod does. */
export const replSetGetStatusCommand: CommandHandler = (_command, context) => {
  const replicaSet = context.server.replicaSet;
  if (!replicaSet || !context.changeStreams)
    throw new CommandError('NoReplicationEnabled', 'not running with --replSet');
  if (context.db !== 'admin')
    throw new CommandError('Unauthorized', 'replSetGetStatus may only be run against the admin database.');
  const now = new Date();
  const opTime = { ts: context.changeStreams.clock.current(), t: Long.fromNumber(1) };
  const opDate = new Date(opTime.ts.t * 1000);
  const startedAt = context.server.startedAt;
  return {
    set: replicaSet.name,
    date: now,
    myState: 1,
    term: Long.fromNumber(1),
    syncSourceHost: '',
    syncSourceId: -1,
    heartbeatIntervalMillis: Long.fromNumber(2000),
    majorityVoteCount: 1,
    writeMajorityCount: 1,
    votingMembersCount: 1,
    writableVotingMembersCount: 1,
    optimes: {
      lastCommittedOpTime: opTime,
      lastCommittedWallTime: opDate,
      appliedOpTime: opTime,
      durableOpTime: opTime,
      lastAppliedWallTime: opDate,
      lastDurableWallTime: opDate,
    },
    members: [
      {
        _id: 0,
        name: context.memberAddress,
        health: 1,
        state: 1,
        stateStr: 'PRIMARY',
        uptime: Math.floor((now.getTime() - startedAt.getTime()) / 1000),
        optime: opTime,
        optimeDate: opDate,
        lastAppliedWallTime: opDate,
        lastDurableWallTime: opDate,
        syncSourceHost: '',
        syncSourceId: -1,
        infoMessage: '',
        electionTime: new Timestamp({ t: Math.floor(startedAt.getTime() / 1000), i: 1 }),
        electionDate: startedAt,
        configVersion: REPLICA_SET_VERSION,
        configTerm: 1,
        self: true,
        lastHeartbeatMessage: '',
      },
    ],
    ok: 1,
  };
};
