import { parseCollation, type Collation } from '../query/collation';
import type { CommandContext } from './command-context';

/**
 * The collation a command runs under: its own, else the collection's default collation (given at
 * create), as mongod applies it to queries, sorts, counts, distinct, aggregations and writes.
 * An explicit `{ locale: 'simple' }` overrides the default with binary comparison.
 */
export function commandCollation(
  raw: unknown,
  context: CommandContext,
  collection: string | undefined,
): Collation | undefined {
  if (raw !== undefined && raw !== null) return parseCollation(raw);
  return collection === undefined
    ? undefined
    : parseCollation(context.catalog.getCollection(context.db, collection)?.options.collation);
}
