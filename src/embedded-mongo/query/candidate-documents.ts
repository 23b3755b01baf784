import { ObjectId, type Document } from 'bson';
import { foldsStrings, type Collation } from './collation';
import type { ReadSource } from './read-source';

export interface Candidates {
  readonly docs: Iterable<Document>;
  /** True when the candidates are exactly the matches (the filter is only an `_id` lookup). */
  readonly exact: boolean;
}

/**
 * The documents a filter can possibly match. An `_id` equality or `$in` is answered from the
 * `_id` map instead of a scan; everything else still goes through the full predicate.
 */
export function candidateDocuments(store: ReadSource, filter: Document, collation?: Collation): Candidates {
  const ids = store.getById ? idsFromFilter(filter._id, foldsStrings(collation)) : undefined;
  if (!ids || !store.getById) return { docs: store.documents(), exact: false };
  const found: Document[] = [];
  const seen = new Set<Document>();
  for (const id of ids) {
    const doc = store.getById(id);
    if (doc && !seen.has(doc)) {
      seen.add(doc);
      found.push(doc);
    }
  }
  return { docs: found, exact: Object.keys(filter).length === 1 };
}

function idsFromFilter(condition: unknown, stringsFold: boolean): unknown[] | undefined {
  if (condition === undefined) return undefined;
  if (isExactValue(condition, stringsFold)) return [condition];
  if (condition === null || typeof condition !== 'object' || condition.constructor !== Object) return undefined;
  const operators = Object.keys(condition);
  if (operators.length !== 1) return undefined;
  const operand = (condition as Document)[operators[0]];
  if (operators[0] === '$eq' && isExactValue(operand, stringsFold)) return [operand];
  if (operators[0] === '$in' && Array.isArray(operand) && operand.every((value) => isExactValue(value, stringsFold))) return operand;
  return undefined;
}

/** Values whose equality is plain key equality: no operators, regexes, arrays, nulls or folded strings. */
function isExactValue(value: unknown, stringsFold: boolean): boolean {
  switch (typeof value) {
    case 'number':
    case 'boolean':
      return true;
    case 'string':
      return !stringsFold;
    case 'object':
      return value instanceof ObjectId || value instanceof Date;
    default:
      return false;
  }
}
