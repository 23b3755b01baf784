import type { Long } from 'bson';
import { collectionName, cursorId, optionalArray } from './command-args';
import type { CommandHandler } from './command-context';

export const killCursorsCommand: CommandHandler = (command, context) => {
  collectionName(command, 'killCursors');
  const cursorsKilled: Long[] = [];
  const cursorsNotFound: Long[] = [];
  for (const raw of optionalArray(command, 'cursors') ?? []) {
    const id = cursorId(raw);
    (context.cursors.kill(id) ? cursorsKilled : cursorsNotFound).push(id);
  }
  return { cursorsKilled, cursorsNotFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
};
