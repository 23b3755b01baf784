import type { PaginationOptions } from '../../ports/service-params';

/**
 * The effective `$limit`: the requested one, else `paginate.default`, else `paginate.max`,
 * capped at `paginate.max`. Without pagination the request is used as it is.
 */
export function resolveLimit(
  requested: number | undefined,
  paginate: PaginationOptions | false | undefined,
): number | undefined {
  if (!paginate) return requested;
  const fallback = paginate.default ?? paginate.max;
  const limit = requested ?? fallback;
  if (limit === undefined) return undefined;
  return paginate.max !== undefined ? Math.min(limit, paginate.max) : limit;
}

/** True when `find` returns a page rather than an array. */
export function isPaginating(paginate: PaginationOptions | false | undefined): paginate is PaginationOptions {
  return !!paginate && (paginate.default !== undefined || paginate.max !== undefined);
}
