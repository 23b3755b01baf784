import { countMatches } from '../query/find-documents';
import { readSource } from '../query/run-pipeline';
import { collectionName, optionalCount, optionalDocument } from './command-args';
import { commandCollation } from './command-collation';
import type { CommandHandler } from './command-context';

/** `count` (estimatedDocumentCount sends it without a query: answered from the size). */
export const countCommand: CommandHandler = (command, context) => {
  const store = readSource(context.catalog, context.db, collectionName(command, 'count'));
  const query = optionalDocument(command, 'query');
  const skip = optionalCount(command, 'skip') ?? 0;
  const limit = Math.abs(optionalCount(command, 'limit', true) ?? 0);
  if ((!query || Object.keys(query).length === 0) && command.hint === undefined) {
    const available = Math.max((store?.size ?? 0) - skip, 0);
    return { n: limit > 0 ? Math.min(limit, available) : available, ok: 1 };
  }
  const n = countMatches(store, {
    filter: query,
    skip,
    limit,
    collation: commandCollation(command.collation, context, collectionName(command, 'count')),
    hint: command.hint,
  });
  return { n, ok: 1 };
};
