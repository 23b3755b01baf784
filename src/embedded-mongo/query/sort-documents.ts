import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { pathValues } from '../storage/path-values';
import { compareBson } from './bson-compare';
import { isBsonNumber, numberValue } from './bson-numbers';
import { collatorFor, type Collation } from './collation';

/** Sort key standing for `{ $meta: 'textScore' }` (highest score first). */
export const TEXT_SCORE_KEY = '\u0000textScore';

/** Validates a sort spec: every direction 1 or -1 (any numeric type), or `{ $meta: 'textScore' }`. */
export function parseSort(raw: unknown): Array<[string, 1 | -1]> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new CommandError('TypeMismatch', 'sort must be an object');
  const fields = Object.entries(raw as Document).map(([field, value]): [string, 1 | -1] => {
    if (isTextScoreMeta(value)) return [TEXT_SCORE_KEY, -1];
    const direction = isBsonNumber(value) ? numberValue(value) : value;
    if (direction !== 1 && direction !== -1)
      throw new CommandError('BadValue', `bad sort specification for field '${field}'`);
    return [field, direction];
  });
  return fields.length > 0 ? fields : undefined;
}

/**
 * Stable multi-key sort in BSON order. On an array field ascending order uses the smallest
 * element and descending the largest, as mongod does. Keys are computed once per document.
 */
export function sortDocuments(
  docs: Document[],
  sort: Array<[string, 1 | -1]>,
  collation?: Collation,
  scores?: ReadonlyMap<Document, number>,
): Document[] {
  const order = sortOrder(sort, collation, scores);
  return docs
    .map(order.keyed)
    .sort(order.compare)
    .map((entry) => entry.doc);
}

/**
 * The first `count` documents of `docs` in sort order (the same order as `sortDocuments`), holding
 * at most 2 x `count` of them at a time: a `$sort` followed by a `$limit` keeps its top, not the
 * whole input.
 */
export function topSorted(
  docs: Iterable<Document>,
  count: number,
  sort: Array<[string, 1 | -1]>,
  collation?: Collation,
  scores?: ReadonlyMap<Document, number>,
): Document[] {
  const order = sortOrder(sort, collation, scores);
  const keep = Math.max(count, 1);
  let top: KeyedDocument[] = [];
  let position = 0;
  for (const doc of docs) {
    top.push(order.keyed(doc, position++));
    if (top.length >= 2 * keep) top = top.sort(order.compare).slice(0, keep);
  }
  return top
    .sort(order.compare)
    .slice(0, count)
    .map((entry) => entry.doc);
}

interface KeyedDocument {
  readonly doc: Document;
  readonly position: number;
  readonly keys: unknown[];
}

function sortOrder(sort: Array<[string, 1 | -1]>, collation?: Collation, scores?: ReadonlyMap<Document, number>) {
  const collator = collation ? collatorFor(collation) : undefined;
  const compareStrings = collator ? (x: string, y: string) => collator.compare(x, y) : undefined;
  return {
    keyed: (doc: Document, position: number): KeyedDocument => ({
      doc,
      position,
      keys: sort.map(([field, direction]) =>
        field === TEXT_SCORE_KEY ? (scores?.get(doc) ?? 0) : sortKey(doc, field, direction, compareStrings),
      ),
    }),
    compare: (left: KeyedDocument, right: KeyedDocument): number => {
      for (let i = 0; i < sort.length; i++) {
        const order = compareBson(left.keys[i], right.keys[i], compareStrings);
        if (order !== 0) return order * sort[i][1];
      }
      return left.position - right.position;
    },
  };
}

function sortKey(
  doc: Document,
  field: string,
  direction: 1 | -1,
  compareStrings?: (x: string, y: string) => number,
): unknown {
  const values = pathValues(doc, field);
  if (values.length === 1) return values[0];
  let best = values[0];
  for (const value of values) {
    if (compareBson(value, best, compareStrings) * direction < 0) best = value;
  }
  return best;
}

export function isTextScoreMeta(value: unknown): boolean {
  return value !== null && typeof value === 'object' && (value as Document).$meta === 'textScore';
}
