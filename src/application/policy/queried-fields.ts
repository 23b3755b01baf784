import { QUERY_COMBINATORS, type Query } from '../../domain/query';
import { topLevelField } from './top-level-field';

/**
 * The top-level fields a query's conditions and `$sort` name (inside `$or`/`$and`/`$nor` too):
 * what a read touches, since matching or ordering by a field reveals something of its value.
 */
export function queriedFields(query: Query | undefined): string[] {
  // A set, not a list searched per key: a query naming a thousand fields stays linear work.
  const fields = new Set<string>();
  if (query) addQueriedFields(query, fields);
  return [...fields];
}

function addQueriedFields(conditions: Record<string, unknown>, fields: Set<string>): void {
  for (const key of Object.keys(conditions)) {
    const value = conditions[key];
    if (QUERY_COMBINATORS.has(key)) {
      if (Array.isArray(value))
        for (const branch of value)
          if (typeof branch === 'object' && branch !== null)
            addQueriedFields(branch as Record<string, unknown>, fields);
    } else if (key === '$sort') {
      if (typeof value === 'object' && value !== null)
        for (const field of Object.keys(value)) fields.add(topLevelField(field));
    } else if (!key.startsWith('$')) {
      fields.add(topLevelField(key));
    }
  }
}
