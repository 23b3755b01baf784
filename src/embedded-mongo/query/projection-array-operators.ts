import type { Document } from 'bson';
import { isBsonNumber, numberValue } from './bson-numbers';
import { elementMatcher } from './element-matcher';
import { ownField, setOwnField } from './own-field';

interface Slice {
  readonly path: string[];
  readonly skip: number;
  readonly limit: number;
}

interface ElemMatch {
  readonly field: string;
  readonly matches: (element: unknown) => boolean;
}

export interface ArrayProjection {
  /** What is left for mingo (undefined: keep every field). */
  readonly rest: Document | undefined;
  /** Applies the `$slice` and `$elemMatch` fields to one projected document, from its stored one. */
  readonly apply: (projected: Document, stored: Document) => Document;
}

/**
 * Takes `$slice` and `$elemMatch` out of a find projection and serves them here, as mongod does:
 * `$slice` neither includes nor excludes (a projection of only `$slice` fields keeps every other
 * field; with `other: 0` it is an exclusion), and `$elemMatch` includes the first element that
 * passes its condition, operator-only conditions (`{ $in: [...] }`, `{ $gte: 3 }`) included.
 * mingo treats `$slice` as an inclusion and refuses both other cases. Undefined when there is none.
 */
export function splitArrayProjection(spec: Document): ArrayProjection | undefined {
  const slices: Slice[] = [];
  const elemMatches: ElemMatch[] = [];
  const rest: Document = {};
  for (const [field, value] of Object.entries(spec)) {
    const slice = isOperator(value, '$slice') ? sliceOf(value.$slice) : undefined;
    if (slice) slices.push({ path: field.split('.'), ...slice });
    else if (isOperator(value, '$elemMatch') && !field.includes('.') && isPlainObject(value.$elemMatch))
      elemMatches.push({ field, matches: elementMatcher(value.$elemMatch) });
    else setOwnField(rest, field, value);
  }
  if (slices.length === 0 && elemMatches.length === 0) return undefined;
  const kind = projectionKind(rest);
  if (kind === 'exclusion' && elemMatches.length > 0) return undefined; // mingo's own answer stands
  if (kind === 'inclusion' || elemMatches.length > 0) {
    for (const slice of slices) setOwnField(rest, slice.path.join('.'), 1);
    for (const { field } of elemMatches) setOwnField(rest, field, 1);
  }
  return {
    rest: Object.keys(rest).length > 0 ? rest : undefined,
    apply: (projected, stored) => {
      let out = projected;
      for (const slice of slices) out = sliceAt(out, slice.path, 0, slice);
      for (const { field, matches } of elemMatches) out = withFirstMatch(out, ownField(stored, field), field, matches);
      return out;
    },
  };
}

/** Whether the other fields include or exclude (`_id` may go either way in both). */
function projectionKind(rest: Document): 'none' | 'inclusion' | 'exclusion' {
  const values = Object.keys(rest)
    .filter((field) => field !== '_id')
    .map((field) => rest[field]);
  if (values.length === 0) return 'none';
  return values.every((value) => value === 0 || value === false || (isBsonNumber(value) && numberValue(value) === 0))
    ? 'exclusion'
    : 'inclusion';
}

function isOperator(value: unknown, operator: string): value is Document {
  return isPlainObject(value) && Object.keys(value).length === 1 && operator in value;
}

function isPlainObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && value.constructor === Object;
}

/** `n` (first n; last n when negative) or `[skip, limit]`; anything else is left to mingo to refuse. */
function sliceOf(operand: unknown): { skip: number; limit: number } | undefined {
  const count = asNumber(operand);
  if (count !== undefined) return count >= 0 ? { skip: 0, limit: count } : { skip: count, limit: -count };
  if (!Array.isArray(operand) || operand.length !== 2) return undefined;
  const [skip, limit] = operand.map(asNumber);
  return skip !== undefined && limit !== undefined && limit > 0 ? { skip, limit } : undefined;
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Math.trunc(value);
  return isBsonNumber(value) ? Math.trunc(numberValue(value)) : undefined;
}

/** A copy of `node` with the array at `path` sliced (through arrays of documents on the way). */
function sliceAt(node: Document, path: string[], depth: number, slice: Slice): Document {
  const value = ownField(node, path[depth]);
  if (value === undefined) return node;
  const copy = { ...node };
  if (depth === path.length - 1) {
    if (Array.isArray(value)) setOwnField(copy, path[depth], sliceArray(value, slice));
  } else if (Array.isArray(value)) {
    setOwnField(
      copy,
      path[depth],
      value.map((item) => (isPlainObject(item) ? sliceAt(item, path, depth + 1, slice) : item)),
    );
  } else if (isPlainObject(value)) setOwnField(copy, path[depth], sliceAt(value, path, depth + 1, slice));
  return copy;
}

function sliceArray(array: unknown[], { skip, limit }: Slice): unknown[] {
  const start = skip < 0 ? Math.max(array.length + skip, 0) : skip;
  return array.slice(start, start + limit);
}

/** The field as `[first matching element]`, or without the field when none matches. */
function withFirstMatch(
  projected: Document,
  stored: unknown,
  field: string,
  matches: (element: unknown) => boolean,
): Document {
  const copy = { ...projected };
  const found = Array.isArray(stored) ? stored.find(matches) : undefined;
  if (found === undefined) delete copy[field];
  else setOwnField(copy, field, [found]);
  return copy;
}
