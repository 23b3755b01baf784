/**
 * Replaces each `:name` segment of a service path (`rooms/:roomId/notes`) with what `fill` gives
 * for that name; other segments stay as they are. The one walk over placeholders that clients
 * (filling a request's path) and publishers (naming an event's concrete path) share.
 */
export function mapRoutePlaceholders(path: string, fill: (name: string, segment: string) => string): string {
  if (!path.includes(':')) return path;
  return path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? fill(segment.slice(1), segment) : segment))
    .join('/');
}
