import { evaluateLet } from '../query/evaluate-let';
import { streamPipeline } from '../query/run-pipeline';
import { optionalCount, optionalDocument } from './command-args';
import { commandCollation } from './command-collation';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { cursorReply } from './cursor-reply';
import { isChangeStreamPipeline } from '../change-streams/change-stream-spec';
import { openChangeStream } from './change-stream.command';

/** `aggregate` on a collection, or on the database with `aggregate: 1`. */
export const aggregateCommand: CommandHandler = (command, context) => {
  const target = command.aggregate;
  const collection = typeof target === 'string' ? target : undefined;
  if (collection === undefined && target !== 1) {
    throw new CommandError('InvalidNamespace', "'aggregate' must be a collection name or the number 1");
  }
  if (isChangeStreamPipeline(command.pipeline)) return openChangeStream(command, context, collection);
  const cursorOptions = optionalDocument(command, 'cursor');
  if (!cursorOptions && command.explain !== true) {
    throw new CommandError(
      'FailedToParse',
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  }
  const results = streamPipeline({
    catalog: context.catalog,
    db: context.db,
    collection,
    pipeline: command.pipeline,
    collation: commandCollation(command.collation, context, collection),
    variables: evaluateLet(command.let),
    sessions: () => context.sessions.list(),
    hint: command.hint,
  });
  const namespace = `${context.db}.${collection ?? '$cmd.aggregate'}`;
  const { id, batch } = context.cursors.open(namespace, results, {
    batchSize: optionalCount(cursorOptions ?? {}, 'batchSize'),
  });
  return cursorReply(id, namespace, batch, 'firstBatch');
};
