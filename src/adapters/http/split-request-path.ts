import { BadRequest } from '../../domain/errors';

/**
 * `/users/12/messages/a%2Fb/` -> `['users', '12', 'messages', 'a/b']`: leading and trailing
 * slashes are dropped, inner empty segments kept (they match nothing), and each segment is
 * percent-decoded after splitting, so an encoded `/` stays inside its id.
 */
export function splitRequestPath(pathname: string): string[] {
  let start = 0;
  let end = pathname.length;
  while (start < end && pathname.charCodeAt(start) === 0x2f) start++;
  while (end > start && pathname.charCodeAt(end - 1) === 0x2f) end--;
  if (start === end) return [];
  const segments = pathname.slice(start, end).split('/');
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index];
    if (segment.includes('%')) segments[index] = decodeSegment(segment);
  }
  return segments;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadRequest('Invalid percent-encoding in the URL path');
  }
}
