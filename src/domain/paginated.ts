/** The page a paginated `find` returns. `total` ignores `$limit` and `$skip`. */
export interface Paginated<T> {
  total: number;
  limit: number;
  skip: number;
  data: T[];
}

export function isPaginated<T>(value: unknown): value is Paginated<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as Paginated<T>).data) &&
    typeof (value as Paginated<T>).total === 'number'
  );
}
