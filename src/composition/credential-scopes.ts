import type { ServiceDefinition } from '../application/services/service-definition';
import type { ServiceScopes } from '../ports/service-caller';

const splitList = (list: string): string[] => [
  ...new Set(
    list
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ),
];

/**
 * The scopes of a new service credential from `--services a,b` and an optional `--methods x,y`:
 * each service must be one this server defines, and each method one that service lists (without
 * `--methods`, every method it lists: what a binding of it calls). Anything else is refused with
 * the names that exist, so a typo never issues a credential that fails later.
 */
export function credentialScopes(
  definitions: readonly ServiceDefinition[],
  services: string,
  methods?: string,
): ServiceScopes {
  const byPath = new Map(definitions.map((definition) => [definition.path, definition]));
  const paths = splitList(services);
  if (paths.length === 0) throw new Error('--services must name at least one service');
  const wanted = methods === undefined ? undefined : splitList(methods);
  if (wanted?.length === 0) throw new Error('--methods must name at least one method');
  const scopes: Record<string, readonly string[]> = Object.create(null);
  for (const path of paths) {
    const definition = byPath.get(path);
    if (!definition)
      throw new Error(`this server has no service "${path.slice(0, 100)}" (it has: ${[...byPath.keys()].join(', ')})`);
    const unknown = (wanted ?? []).filter((method) => !definition.methods.includes(method));
    if (unknown.length > 0)
      throw new Error(
        `the service "${path}" has no method ${unknown.map((method) => `"${method.slice(0, 100)}"`).join(', ')} (it ` +
          `has: ${definition.methods.join(', ')})`,
      );
    scopes[path] = Object.freeze([...(wanted ?? definition.methods)]);
  }
  return Object.freeze(scopes);
}
