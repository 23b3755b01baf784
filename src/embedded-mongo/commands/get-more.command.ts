import { cursorId, optionalCount } from './command-args';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { cursorReply } from './cursor-reply';

export const getMoreCommand: CommandHandler = (command, context) => {
  const id = cursorId(command.getMore);
  if (typeof command.collection !== 'string')
    throw new CommandError('TypeMismatch', "BSON field 'getMore.collection' must be a string");
  const namespace = `${context.db}.${command.collection}`;
  const result = context.cursors.getMore(id, namespace, optionalCount(command, 'batchSize'));
  return cursorReply(result.id, namespace, result.batch, 'nextBatch', result.postBatchResumeToken);
};
