import type { Document } from 'bson';
import { describePlan } from '../indexes/query-plan';
import { parseCollation } from '../query/collation';
import { evaluateLet } from '../query/evaluate-let';
import { findDocuments, type ExecutionStats, type FindSpec } from '../query/find-documents';
import { asFilter } from '../query/match';
import { foldPipelineHead } from '../query/pipeline-head';
import { readSource } from '../query/run-pipeline';
import { parseSort } from '../query/sort-documents';
import { optionalCount } from './command-args';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { SERVER_VERSION } from '../base/server-identity';

const EXPLAINABLE = new Set(['find', 'aggregate', 'count', 'distinct', 'update', 'delete', 'findAndModify']);

/**
 * `explain`: plans the command's read (its filter, sort, hint and collation), and unless the
 * verbosity is `queryPlanner` executes it to report keys and documents examined. Writes are
 * never performed.
 */
export const explainCommand: CommandHandler = (command, context) => {
  const inner = command.explain as Document | undefined;
  const name = inner && typeof inner === 'object' ? Object.keys(inner)[0] : undefined;
  if (!inner || !name || !EXPLAINABLE.has(name))
    throw new CommandError(
      'BadValue',
      'explain requires a find, aggregate, count, distinct, update, delete or findAndModify command',
    );
  const verbosity = typeof command.verbosity === 'string' ? command.verbosity : 'allPlansExecution';
  const read = readOf(name, inner);
  const stats: ExecutionStats = { keysExamined: 0, docsExamined: 0, nReturned: 0 };
  const started = process.hrtime.bigint();
  findDocuments(readSource(context.catalog, context.db, String(inner[name])), { ...read, stats });
  const millis = Number((process.hrtime.bigint() - started) / 1_000_000n);
  const filter = asFilter(read.filter);
  const winningPlan = stats.plan ? describePlan(stats.plan, filter) : { stage: 'EOF' };
  return {
    explainVersion: '1',
    queryPlanner: {
      namespace: `${context.db}.${String(inner[name])}`,
      indexFilterSet: false,
      parsedQuery: filter,
      winningPlan,
      rejectedPlans: [],
    },
    ...(verbosity === 'queryPlanner'
      ? {}
      : {
          executionStats: {
            executionSuccess: true,
            nReturned: stats.nReturned,
            executionTimeMillis: millis,
            totalKeysExamined: stats.keysExamined,
            totalDocsExamined: stats.docsExamined,
            executionStages: {
              ...winningPlan,
              nReturned: stats.nReturned,
              keysExamined: stats.keysExamined,
              docsExamined: stats.docsExamined,
            },
          },
        }),
    command: inner,
    serverInfo: { host: context.server.host(), version: SERVER_VERSION },
    ok: 1,
  };
};

/** The read a command performs, as a find. */
function readOf(name: string, inner: Document): FindSpec {
  const common = { collation: parseCollation(inner.collation), variables: evaluateLet(inner.let), hint: inner.hint };
  switch (name) {
    case 'find':
      return {
        ...common,
        filter: inner.filter,
        sort: parseSort(inner.sort),
        skip: optionalCount(inner, 'skip'),
        limit: Math.abs(optionalCount(inner, 'limit', true) ?? 0),
      };
    case 'count':
      return {
        ...common,
        filter: inner.query,
        skip: optionalCount(inner, 'skip'),
        limit: Math.abs(optionalCount(inner, 'limit', true) ?? 0),
      };
    case 'distinct':
      return { ...common, filter: inner.query };
    case 'findAndModify':
      return { ...common, filter: inner.query, sort: parseSort(inner.sort), limit: 1 };
    case 'aggregate': {
      // The find that `runPipeline` folds the pipeline's head into.
      const head = Array.isArray(inner.pipeline)
        ? foldPipelineHead(inner.pipeline as Document[], inner.hint !== undefined)
        : { length: 0 };
      return { ...common, filter: head.filter ?? {}, sort: head.sort, skip: head.skip, limit: head.limit };
    }
    default: {
      const statement = ((name === 'update' ? inner.updates : inner.deletes) as Document[] | undefined)?.[0] ?? {};
      return {
        ...common,
        filter: statement.q,
        collation: parseCollation(statement.collation),
        hint: statement.hint,
        limit: statement.multi === true || statement.limit === 0 ? 0 : 1,
      };
    }
  }
}
