import type { Document } from 'bson';
import { compileFilter } from './match';

/** Operators that make a condition a query on each element as a whole document. */
const TOP_LEVEL_OPERATORS = new Set(['$and', '$or', '$nor', '$expr', '$where', '$comment', '$jsonSchema']);

/**
 * The test an array element passes for `$pull` and the `$elemMatch` projection: a condition made
 * only of operators (`{ $gte: 3 }`, `{ $in: [...] }`) is applied to the element's value; any other
 * is a query on the element as a document (where `$or` / `$and` are the query's own), which
 * elements that are not documents never match.
 */
export function elementMatcher(condition: Document): (element: unknown) => boolean {
  const keys = Object.keys(condition);
  if (keys.length > 0 && keys[0].startsWith('$') && !TOP_LEVEL_OPERATORS.has(keys[0])) {
    const matchesValue = compileFilter({ value: condition });
    return (element) => matchesValue({ value: element });
  }
  const matchesDocument = compileFilter(condition);
  return (element) =>
    element !== null &&
    typeof element === 'object' &&
    (element as object).constructor === Object &&
    matchesDocument(element as Document);
}
