/** Service paths are stored without leading or trailing slashes ('/' alone stays '/'). */
export function normalizePath(path: string): string {
  if (typeof path !== 'string') throw new TypeError('A service path must be a string');
  // Already normalized (every call through `execute` passes the stored form): nothing to replace.
  if (path !== '' && path.charCodeAt(0) !== 0x2f && path.charCodeAt(path.length - 1) !== 0x2f) return path;
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : trimmed;
}
