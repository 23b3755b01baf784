import type { Document } from 'bson';
import { isBsonNumber, numberValue } from './bson-numbers';

/** The leading stages of a pipeline that a `find` answers, as the `FindSpec` fields they set. */
export interface PipelineHead {
  readonly filter?: unknown;
  readonly sort?: Array<[string, 1 | -1]>;
  readonly skip?: number;
  readonly limit?: number;
  readonly projection?: Document;
  /** How many stages the head covers (0: none, the pipeline runs in mingo from its first stage). */
  readonly length: number;
}

/**
 * Folds `$match`, `$sort`, `$skip`, `$limit` (in that order, each optional) and a final simple
 * `$project` into one find, so the index picks the order and the scan stops after skip + limit.
 * Only well-formed stages are folded: anything mingo would reject or read differently stays with
 * mingo, so error messages and edge cases do not change. Without a `$match` nothing is folded when
 * a hint is given (the hint applies to the leading `$match` only).
 */
export function foldPipelineHead(stages: readonly Document[], hinted: boolean): PipelineHead {
  let at = 0;
  let filter: unknown;
  if (stages[0] && '$match' in stages[0]) {
    filter = stages[0].$match;
    at = 1;
  } else if (hinted) {
    return { length: 0 };
  }
  const sort = stages[at] && '$sort' in stages[at] ? simpleSort(stages[at].$sort) : undefined;
  if (sort) at++;
  const skip = stages[at] && '$skip' in stages[at] ? count(stages[at].$skip, 0) : undefined;
  if (skip !== undefined) at++;
  const limit = stages[at] && '$limit' in stages[at] ? count(stages[at].$limit, 1) : undefined;
  if (limit !== undefined) at++;
  const projection =
    at === stages.length - 1 && '$project' in stages[at] && isSimpleProjection(stages[at].$project)
      ? (stages[at].$project as Document)
      : undefined;
  if (projection) at++;
  return { filter, sort, skip, limit, projection, length: at };
}

/** A non-empty sort of plain fields, each 1 or -1 (no `$meta`, which needs the text-score rewrite). */
function simpleSort(spec: unknown): Array<[string, 1 | -1]> | undefined {
  if (!isPlainObject(spec)) return undefined;
  const fields = Object.entries(spec);
  if (fields.length === 0) return undefined;
  const sort: Array<[string, 1 | -1]> = [];
  for (const [field, value] of fields) {
    const direction = isBsonNumber(value) ? numberValue(value) : undefined;
    if ((direction !== 1 && direction !== -1) || field.startsWith('$')) return undefined;
    sort.push([field, direction]);
  }
  return sort;
}

/** An integer of at least `min` (mongod refuses `$limit: 0` and negative counts; mingo does not). */
function count(value: unknown, min: number): number | undefined {
  const n = isBsonNumber(value) ? numberValue(value) : NaN;
  return Number.isSafeInteger(n) && n >= min ? n : undefined;
}

/**
 * Plain inclusion or exclusion of fields (`_id` may be excluded either way): find projections and
 * `$project` read those the same, unlike expressions, `$`-operators or an empty spec.
 */
function isSimpleProjection(spec: unknown): boolean {
  if (!isPlainObject(spec)) return false;
  const kinds = new Set<boolean>();
  const fields = Object.entries(spec);
  for (const [field, value] of fields) {
    if (
      field.length === 0 ||
      field.startsWith('$') ||
      field.includes('$') ||
      field.startsWith('.') ||
      field.endsWith('.')
    )
      return false;
    if (value !== 0 && value !== 1 && value !== true && value !== false) return false;
    if (field !== '_id') kinds.add(value === 1 || value === true);
  }
  // `a` with `a.b` is a path collision, reported differently by the two; mingo keeps it.
  const names = fields.map(([field]) => field);
  const collides = names.some((name) => names.some((other) => other.startsWith(`${name}.`)));
  return fields.length > 0 && kinds.size <= 1 && !collides;
}

function isPlainObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && value.constructor === Object;
}
