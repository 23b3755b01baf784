import type { RegisteredService } from '../../application/app/registered-service';
import { allowedHttpMethods } from './http-method-mapping';

/** A service as the router sees it; the `Allow` values are computed once, at build time. */
export interface RouteEntry {
  readonly service: RegisteredService;
  readonly placeholders: readonly string[];
  readonly collectionAllow: string;
  readonly itemAllow: string;
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
 * A segment tree of every service path. Matching prefers, at each level, a literal segment,
 * then a placeholder, then the segment as the id of the service so far:
 * so `messages/archive` beats `get('archive')` on `messages`.
 */
export class RouteTable {
  private readonly root = newNode();

  constructor(services: Iterable<RegisteredService>) {
    for (const service of services) this.insert(service);
  }

  /** `segments` are already percent-decoded; empty segments never match a placeholder or an id. */
  match(segments: readonly string[]): RouteMatch | undefined {
    const values: string[] = [];
    const found = search(this.root, segments, 0, values);
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
    node.entry = {
      service, placeholders,
      collectionAllow: allowedHttpMethods(service.methods, false),
      itemAllow: allowedHttpMethods(service.methods, true),
    };
  }
}

export function splitServicePath(path: string): string[] {
  return path === '/' ? [] : path.split('/');
}

/** Depth is bounded by the tree's height (plus one id segment), not by the URL. */
function search(node: RouteNode, segments: readonly string[], index: number, values: string[]): { entry: RouteEntry; id?: string } | undefined {
  if (index === segments.length) return node.entry ? { entry: node.entry } : undefined;
  const segment = segments[index];
  const literal = node.literals.get(segment);
  if (literal) {
    const found = search(literal, segments, index + 1, values);
    if (found) return found;
  }
  if (segment === '') return undefined;
  if (node.param) {
    values.push(segment);
    const found = search(node.param, segments, index + 1, values);
    if (found) return found;
    values.pop();
  }
  if (index === segments.length - 1 && node.entry) return { entry: node.entry, id: segment };
  return undefined;
}
