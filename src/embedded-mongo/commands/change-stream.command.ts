import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { parseChangeStream } from '../change-streams/change-stream-spec';
import { optionalCount, optionalDocument } from './command-args';
import type { CommandContext } from './command-context';
import { cursorReply } from './cursor-reply';

/**
 * `aggregate` whose pipeline starts with `$changeStream` (`watch()` on a collection, a database, or
 * the client): opens a change-stream cursor. A standalone refuses it as mongod does.
 */
export function openChangeStream(command: Document, context: CommandContext, collection: string | undefined): Document {
  if (!context.changeStreams)
    throw new CommandError('Location40573', 'The $changeStream stage is only supported on replica sets');
  if (command.autocommit === false) {
    throw new CommandError(
      'OperationNotSupportedInTransaction',
      'Operation not permitted in transaction: $changeStream cannot run in a multi-document transaction',
    );
  }
  if (collection !== undefined && context.catalog.getCollection(context.db, collection)?.options.viewOn !== undefined) {
    throw new CommandError(
      'CommandNotSupportedOnView',
      `Namespace ${context.db}.${collection} is a view, not a collection`,
    );
  }
  const spec = parseChangeStream(command.pipeline as Document[], context.db, collection);
  const stream = context.changeStreams.openStream(spec);
  const namespace = `${context.db}.${collection ?? '$cmd.aggregate'}`;
  const batchSize = optionalCount(optionalDocument(command, 'cursor') ?? {}, 'batchSize');
  const { id, batch, postBatchResumeToken } = context.cursors.openStream(namespace, stream, batchSize);
  return cursorReply(id, namespace, batch, 'firstBatch', postBatchResumeToken);
}
