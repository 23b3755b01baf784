import { QUERY_COMBINATORS, type Query } from '../../domain/query';
import { topLevelField } from './top-level-field';

/**
 * The top-level fields a query's conditions and `$sort` name (inside `$or`/`$and`/`$nor` too):
 * what a read touches, since matching or ordering by a field reveals something of its value.
 */
export function queriedFields(query: Query | undefined): string[] {
  const fields = new Set<string>();
  const walk = (conditions: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(conditions)) {
      if (QUERY_COMBINATORS.has(key)) {
        if (Array.isArray(value)) for (const branch of value) if (typeof branch === 'object' && branch !== null) walk(branch as Record<string, unknown>);
      } else if (key === '$sort') {
        if (typeof value === 'object' && value !== null) for (const field of Object.keys(value)) fields.add(topLevelField(field));
      } else if (!key.startsWith('$')) {
        fields.add(topLevelField(key));
      }
    }
  };
  if (query) walk(query);
  return [...fields];
}
