import { isPlainObject } from '../../domain/plain-record';

/** An id a store can look up by key: a string, or a number that equals itself (NaN matches NaN in a query). */
export type LookupId = string | number;

function isLookupId(value: unknown): value is LookupId {
  return typeof value === 'string' || (typeof value === 'number' && !Number.isNaN(value));
}

/**
 * The ids a query names when it names nothing else: `{ [idField]: id }` or `{ [idField]: { $in: ids } }`
 * (what a relation's batched read sends), with string or number ids. Anything else, including an
 * id given as an object or a second condition, is undefined: such a query is matched record by record.
 */
export function idsNamedBy(query: Record<string, unknown>, idField: string): readonly LookupId[] | undefined {
  let condition: unknown;
  let keys = 0;
  for (const key in query) {
    if (!Object.hasOwn(query, key)) continue;
    if (key !== idField || ++keys > 1) return undefined;
    condition = query[key];
  }
  if (keys === 0) return undefined;
  if (isLookupId(condition)) return [condition];
  if (!isPlainObject(condition)) return undefined;
  const operators = Object.keys(condition);
  const ids = condition.$in;
  if (operators.length !== 1 || operators[0] !== '$in' || !Array.isArray(ids) || !ids.every(isLookupId))
    return undefined;
  return ids;
}

/**
 * Where each key of a `Map` stands in its iteration order (first insertion; a value replaced keeps
 * its place, a key deleted and added again goes last), so that records looked up by key can be put
 * back in the order a scan of the map would find them.
 */
export class InsertionPositions {
  private readonly positions = new Map<string, number>();
  private next = 0;

  /** A key was set in the map (a new key takes the next place; an existing one keeps its own). */
  set(key: string): void {
    if (!this.positions.has(key)) this.positions.set(key, this.next++);
  }

  delete(key: string): void {
    this.positions.delete(key);
  }

  get size(): number {
    return this.positions.size;
  }

  /** `items` sorted in the map's order, `keyOf` giving each one's key. */
  sort<T>(items: T[], keyOf: (item: T) => string): T[] {
    if (items.length < 2) return items;
    return items.sort((a, b) => this.positions.get(keyOf(a))! - this.positions.get(keyOf(b))!);
  }
}
