/** Service paths are stored without leading or trailing slashes ('/' alone stays '/'). */
export function normalizePath(path: string): string {
  if (typeof path !== 'string') throw new TypeError('A service path must be a string');
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : trimmed;
}
