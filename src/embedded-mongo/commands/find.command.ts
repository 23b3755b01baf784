import { evaluateLet } from '../query/evaluate-let';
import { findStream } from '../query/find-documents';
import { readSource } from '../query/run-pipeline';
import { parseSort } from '../query/sort-documents';
import { collectionName, optionalCount, optionalDocument } from './command-args';
import { commandCollation } from './command-collation';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { cursorReply } from './cursor-reply';

/** `find`: a negative limit means "one batch of that many", as legacy clients send it. */
export const findCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, 'find');
  if (command.tailable === true) throw new CommandError('BadValue', 'tailable cursors require a capped collection');
  const rawLimit = optionalCount(command, 'limit', true) ?? 0;
  const limit = Math.abs(rawLimit);
  const batchSize = optionalCount(command, 'batchSize');
  const results = findStream(readSource(context.catalog, context.db, name), {
    filter: optionalDocument(command, 'filter'),
    sort: parseSort(command.sort),
    skip: optionalCount(command, 'skip'),
    limit,
    projection: optionalDocument(command, 'projection'),
    collation: commandCollation(command.collation, context, name),
    variables: evaluateLet(command.let),
    hint: command.hint,
  });
  const namespace = `${context.db}.${name}`;
  const firstBatchSize = limit > 0 && (batchSize === undefined || limit < batchSize) ? limit : batchSize;
  const { id, batch } = context.cursors.open(namespace, results, {
    batchSize: firstBatchSize,
    singleBatch: command.singleBatch === true || rawLimit < 0,
  });
  return cursorReply(id, namespace, batch, 'firstBatch');
};
