import type { Document } from 'bson';
import { MAX_BSON_OBJECT_SIZE } from '../wire/wire-constants';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { FEATURE_COMPATIBILITY_VERSION, MAX_WIRE_VERSION, SERVER_VERSION, VERSION_ARRAY } from '../base/server-identity';

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

const PARAMETERS: Document = {
  featureCompatibilityVersion: { version: FEATURE_COMPATIBILITY_VERSION },
  authenticationMechanisms: [],
  maxBSONDepth: 100,
  internalQueryMaxBlockingSortMemoryUsageBytes: 104857600,
};

/** `getParameter`: `'*'` (or `{ allParameters: true }`) returns all; otherwise the fields set to 1. */
export const getParameterCommand: CommandHandler = (command) => {
  const selector = command.getParameter;
  const all = selector === '*' || (typeof selector === 'object' && selector !== null && (selector as Document).allParameters === true);
  if (all) return { ...PARAMETERS, ok: 1 };
  const reply: Document = {};
  for (const key of Object.keys(command)) {
    if (key in PARAMETERS) reply[key] = PARAMETERS[key];
  }
  if (Object.keys(reply).length === 0) throw new CommandError('InvalidOptions', 'no option found to get');
  return { ...reply, ok: 1 };
};

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
    connections: { current: context.server.currentConnections(), available: 1000, totalCreated: context.server.totalConnections() },
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
