import { BadRequest } from '../../domain/errors';
import { echo, echoValue } from '../../domain/echo';
import { LOGICAL_OPERATORS, STANDARD_OPERATORS, type Query, type QueryFilters } from '../../domain/query';
import { mapConditions } from '../../domain/query-conditions';
import type { FilterSetting } from '../../ports/service-options';
import type { PaginationOptions } from '../../ports/service-params';
import { resolveLimit } from './pagination';
import { isObject, parseCount, parseSelect, parseSort } from './parse-filters';
import { FORBIDDEN_KEYS, NEVER_ALLOWED_OPERATORS } from './query-limits';
import { copyConditionValue } from './validate-conditions';

const STANDARD_FIELD_OPERATORS: ReadonlySet<string> = new Set(STANDARD_OPERATORS);

export interface FilterQueryOptions {
  filters?: Record<string, FilterSetting>;
  operators?: readonly string[];
  paginate?: PaginationOptions | false;
}

export interface FilteredQuery {
  filters: QueryFilters;
  query: Query;
}

/**
 * Splits a service query into filters (`$limit $skip $sort $select` and custom ones) and
 * conditions, validating both strictly: anything not allowed is a 400 naming the key. The
 * result is a fresh copy; the input is never changed.
 */
export function filterQuery(input: unknown, options: FilterQueryOptions = {}): FilteredQuery {
  if (input !== undefined && input !== null && (!isObject(input) || Array.isArray(input)))
    throw new BadRequest('The query must be an object');
  const operators = operatorSet(options.operators);
  const filters: QueryFilters = {};
  const conditions: Query = {};
  let hasConditions = false;
  const source = (input ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (FORBIDDEN_KEYS.has(key)) throw new BadRequest(`Invalid query parameter ${echo(key)}`);
    if (value === undefined) continue;
    switch (key) {
      case '$limit':
        filters.$limit = parseCount('$limit', value);
        break;
      case '$skip':
        filters.$skip = parseCount('$skip', value);
        break;
      case '$sort':
        filters.$sort = parseSort(value);
        break;
      case '$select':
        filters.$select = parseSelect(value);
        break;
      default:
        if (options.filters && Object.hasOwn(options.filters, key)) {
          const setting = options.filters[key];
          const converted = setting === true ? value : setting(value);
          if (converted !== undefined) filters[key] = converted;
        } else {
          conditions[key] = value;
          hasConditions = true;
        }
    }
  }
  const query = hasConditions ? validateConditions(conditions, operators) : {};
  const limit = resolveLimit(filters.$limit, options.paginate);
  if (limit !== undefined) filters.$limit = limit;
  return { filters, query };
}

/** The conditions, checked against the allowed operators, as a fresh copy. */
function validateConditions(conditions: Query, operators: ReadonlySet<string>): Query {
  return mapConditions(conditions, {
    // `$or` and `$and` always; `$nor` only where the service lists it.
    combinator(key) {
      if (!(LOGICAL_OPERATORS as readonly string[]).includes(key) && !allowedAtTopLevel(key, operators))
        throw new BadRequest(`Invalid filter value ${echo(key)}`);
    },
    field(key, value, depth) {
      if (FORBIDDEN_KEYS.has(key)) throw new BadRequest(`Invalid query parameter ${echo(key)}`);
      if (key.startsWith('$') && !allowedAtTopLevel(key, operators)) {
        throw depth === 1
          ? new BadRequest(`Invalid filter value ${echo(key)}`)
          : new BadRequest(`Invalid query parameter ${echo(key)}`, { [echo(key)]: echoValue(value) });
      }
      return copyConditionValue(value, operators, depth);
    },
  });
}

const operatorSets = new WeakMap<readonly string[], { key: string; set: ReadonlySet<string> }>();

/** The allowed operators, built once per service's `operators` array rather than per call. */
function operatorSet(extra: readonly string[] | undefined): ReadonlySet<string> {
  if (extra === undefined || extra.length === 0) return STANDARD_FIELD_OPERATORS;
  // The array may be changed in place (`service.options.operators.push(...)`): its contents are the key.
  const key = extra.join('\u0000');
  const cached = operatorSets.get(extra);
  if (cached?.key === key) return cached.set;
  const set: ReadonlySet<string> = new Set([...STANDARD_OPERATORS, ...extra]);
  operatorSets.set(extra, { key, set });
  return set;
}

/**
 * A `$` key where a field name stands (the query itself, or an `$or`/`$and` branch): field
 * operators ($in, $eq, ...) mean nothing there; only listed extras (e.g. $text) may stand there.
 */
function allowedAtTopLevel(key: string, operators: ReadonlySet<string>): boolean {
  return operators.has(key) && !NEVER_ALLOWED_OPERATORS.has(key) && !STANDARD_FIELD_OPERATORS.has(key);
}
