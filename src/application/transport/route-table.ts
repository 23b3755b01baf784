import type { Application } from '../app/application';
import type { RegisteredService } from '../app/registered-service';
import { BadRequest } from '../../domain/errors';

/** A service as the router sees it. */
export interface RouteEntry {
  readonly service: RegisteredService;
  readonly placeholders: readonly string[];
}

export interface RouteMatch {
  readonly entry: RouteEntry;
  /** The (decoded) id segment, when the URL has one. */
  readonly id: string | undefined;
  readonly route: Record<string, string>;
}

interface RouteNode {
  readonly literals: Map<string, RouteNode>;
  /** Placeholders of any name share one branch per level (`a/:x/b` and `a/:y/c` both match). */
  param?: RouteNode;
  entry?: RouteEntry;
}

const newNode = (): RouteNode => ({ literals: new Map() });

/**
 * A segment tree of every service path, shared by the transports: a URL path over HTTP, a call's
 * path over a socket (`rooms/7/echo` for `rooms/:roomId/echo`). Matching prefers, at each level, a literal segment,
 * then a placeholder, then the segment as the id of the service so far:
 * so `messages/archive` beats `get('archive')` on `messages`.
 */
export class RouteTable {
  private readonly root = newNode();

  constructor(services: Iterable<RegisteredService>) {
    for (const service of services) this.insert(service);
  }

  /**
   * Matches a URL path (`/users/12/messages/a%2Fb/`): leading and trailing slashes are dropped,
   * inner empty segments kept (they match nothing), and each segment is percent-decoded on its
   * own, so an encoded `/` stays inside its id. The path is walked in place, without splitting it.
   */
  match(pathname: string): RouteMatch | undefined {
    let start = 0;
    let end = pathname.length;
    while (start < end && pathname.charCodeAt(start) === 0x2f) start++;
    while (end > start && pathname.charCodeAt(end - 1) === 0x2f) end--;
    const values: string[] = [];
    const found =
      start === end
        ? this.root.entry
          ? { entry: this.root.entry }
          : undefined
        : search(this.root, pathname, start, end, values);
    if (!found) return undefined;
    const route: Record<string, string> = {};
    const { placeholders } = found.entry;
    for (let index = 0; index < placeholders.length; index++) route[placeholders[index]] = values[index];
    return { entry: found.entry, id: found.id, route };
  }

  private insert(service: RegisteredService): void {
    const placeholders: string[] = [];
    let node = this.root;
    for (const segment of splitServicePath(service.path)) {
      if (segment.startsWith(':')) {
        placeholders.push(segment.slice(1));
        node = node.param ?? (node.param = newNode());
      } else {
        let next = node.literals.get(segment);
        if (!next) node.literals.set(segment, (next = newNode()));
        node = next;
      }
    }
    node.entry = { service, placeholders };
  }
}

/**
 * The routes of `app` as they are now: one table for every transport, rebuilt only when services
 * are added or removed (`app.version`), so services registered later are reachable at once.
 */
export function currentRoutes(app: Application): () => RouteTable {
  let table: RouteTable | undefined;
  let version = -1;
  return () => {
    if (!table || version !== app.version) {
      table = new RouteTable(app.entries());
      version = app.version;
    }
    return table;
  };
}

export function splitServicePath(path: string): string[] {
  return path === '/' ? [] : path.split('/');
}

/**
 * The segment starting at `start` of `path` (which ends at `last`), then the rest below `node`;
 * past `last`, the path is used up. Depth is bounded by the tree's height (plus one id
 * segment), not by the URL.
 */
function search(
  node: RouteNode,
  path: string,
  start: number,
  last: number,
  values: string[],
): { entry: RouteEntry; id?: string } | undefined {
  if (start > last) return node.entry ? { entry: node.entry } : undefined;
  let end = path.indexOf('/', start);
  if (end === -1 || end > last) end = last;
  const segment = decodeSegment(path.slice(start, end));
  const literal = node.literals.get(segment);
  if (literal) {
    const found = search(literal, path, end + 1, last, values);
    if (found) return found;
  }
  if (segment === '') return undefined;
  if (node.param) {
    values.push(segment);
    const found = search(node.param, path, end + 1, last, values);
    if (found) return found;
    values.pop();
  }
  if (end === last && node.entry) return { entry: node.entry, id: segment };
  return undefined;
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadRequest('Invalid percent-encoding in the URL path');
  }
}
