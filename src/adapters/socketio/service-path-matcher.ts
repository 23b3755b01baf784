import type { Application } from '../../application/app/application';
import type { RegisteredService } from '../../application/app/registered-service';

export interface PathMatch {
  entry: RegisteredService;
  route: Record<string, string>;
}

interface Template {
  entry: RegisteredService;
  segments: string[];
}

/**
 * Finds the service a socket call names: the path as registered, or a concrete path of a service
 * with `:name` placeholders (`rooms/7/echo` for `rooms/:roomId/echo`, giving `route.roomId`).
 * The templates are re-read whenever services are added or removed (`app.version`), so services
 * registered after a socket connected are callable from it.
 */
export function createServicePathMatcher(app: Application): (path: string) => PathMatch | undefined {
  let templates: Template[] = [];
  let version = -1;
  return (path) => {
    const exact = app.lookup(path);
    if (exact) return { entry: exact, route: {} };
    if (version !== app.version) {
      templates = app.entries().filter((entry) => entry.path.includes(':')).map((entry) => ({ entry, segments: entry.path.split('/') }));
      version = app.version;
    }
    if (templates.length === 0) return undefined;
    const segments = path.replace(/^\/+|\/+$/g, '').split('/');
    for (const template of templates) {
      const route = matchSegments(template.segments, segments);
      if (route) return { entry: template.entry, route };
    }
    return undefined;
  };
}

function matchSegments(template: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (template.length !== segments.length) return undefined;
  const route: Record<string, string> = {};
  for (let index = 0; index < template.length; index++) {
    const expected = template[index];
    const actual = segments[index];
    if (expected.startsWith(':')) {
      if (actual === '') return undefined;
      route[expected.slice(1)] = actual;
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return route;
}
