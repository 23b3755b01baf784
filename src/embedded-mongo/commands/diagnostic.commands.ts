import { MAX_BSON_OBJECT_SIZE } from '../wire/wire-constants';
import type { CommandHandler } from './command-context';
import { MAX_WIRE_VERSION, SERVER_VERSION, VERSION_ARRAY } from '../base/server-identity';

export const pingCommand: CommandHandler = () => ({ ok: 1 });

export const buildInfoCommand: CommandHandler = () => ({
  version: SERVER_VERSION,
  gitVersion: 'embedded',
  versionArray: VERSION_ARRAY,
  bits: 64,
  debug: false,
  maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
  modules: [],
  allocator: 'system',
  javascriptEngine: 'none',
  storageEngines: ['embedded'],
  ok: 1,
});

export const serverStatusCommand: CommandHandler = (_command, context) => {
  const uptimeMillis = Date.now() - context.server.startedAt.getTime();
  return {
    host: context.server.host(),
    version: SERVER_VERSION,
    process: 'mongod',
    pid: process.pid,
    uptime: Math.floor(uptimeMillis / 1000),
    uptimeMillis,
    localTime: new Date(),
    connections: {
      current: context.server.currentConnections(),
      available: 1000,
      totalCreated: context.server.totalConnections(),
    },
    metrics: { cursor: { open: { total: context.cursors.openCount } } },
    storageEngine: { name: 'embedded', persistent: false },
    maxWireVersion: MAX_WIRE_VERSION,
    ok: 1,
  };
};

export const connectionStatusCommand: CommandHandler = () => ({
  authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] },
  ok: 1,
});

export const hostInfoCommand: CommandHandler = (_command, context) => ({
  system: { currentTime: new Date(), hostname: context.server.host() },
  os: { type: process.platform },
  extra: {},
  ok: 1,
});

/** Ends the sessions and aborts their open transactions. */
export const endSessionsCommand: CommandHandler = (command, context) => {
  context.sessions.end(Array.isArray(command.endSessions) ? command.endSessions : []);
  return { ok: 1 };
};

/** `refreshSessions`: sessions are kept alive by every command that carries their lsid anyway. */
export const acknowledgeCommand: CommandHandler = () => ({ ok: 1 });
