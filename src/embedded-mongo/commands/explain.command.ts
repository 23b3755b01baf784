import type { Document } from 'bson';
import type { CommandHandler } from './command-context';
import { CommandError } from './command-error';
import { SERVER_VERSION } from './server-identity';

const EXPLAINABLE = new Set(['find', 'aggregate', 'count', 'distinct', 'update', 'delete', 'findAndModify']);

/**
 * A minimal `explain`: the plan names the `_id` lookup or a collection scan, which is all the
 * planner there is. It does not execute the command.
 */
export const explainCommand: CommandHandler = (command, context) => {
  const inner = command.explain as Document | undefined;
  const name = inner && typeof inner === 'object' ? Object.keys(inner)[0] : undefined;
  if (!inner || !name || !EXPLAINABLE.has(name)) throw new CommandError('BadValue', 'explain requires a find, aggregate, count, distinct, update, delete or findAndModify command');
  const filter = (inner.filter ?? inner.query ?? {}) as Document;
  const stage = filter && typeof filter === 'object' && '_id' in filter ? 'IDHACK' : 'COLLSCAN';
  return {
    explainVersion: '1',
    queryPlanner: {
      namespace: `${context.db}.${String(inner[name])}`,
      parsedQuery: filter,
      winningPlan: { stage },
      rejectedPlans: [],
    },
    command: inner,
    serverInfo: { host: context.server.host(), version: SERVER_VERSION },
    ok: 1,
  };
};
