import type { ServiceDefinition } from '../application/services/service-definition';
import type { AppConfig } from './app-config';
import { ConfigError } from './load-config';

/** The name of a service in its `<NAME>_REMOTE_URL` variable, lower-cased: `api/notes` -> `api_notes`. */
export function remoteNameOf(path: string): string {
  return path.toLowerCase().replace(/[^a-z0-9]/g, '_');
}

/** The remote binding configured for a definition, if any (own entries only: never `Object.prototype`'s `constructor`). */
export function remoteOf(config: AppConfig, definition: ServiceDefinition): AppConfig['remotes'][string] | undefined {
  const name = remoteNameOf(definition.path);
  return Object.hasOwn(config.remotes, name) ? config.remotes[name] : undefined;
}

/** A `<NAME>_REMOTE_URL` naming no service is a mistake worth stopping for (a typo binds nothing). */
export function assertRemotesNameServices(config: AppConfig, definitions: readonly ServiceDefinition[]): void {
  const known = definitions.map((definition) => remoteNameOf(definition.path));
  for (const name of Object.keys(config.remotes)) {
    if (!known.includes(name)) throw new ConfigError(`${name.toUpperCase()}_REMOTE_URL names no service (known: ${known.join(', ')})`);
  }
}

/** The database is needed when some service is stored locally in MongoDB. */
export function usesLocalDatabase(config: AppConfig, definitions: readonly ServiceDefinition[]): boolean {
  return config.store === 'mongo' && definitions.some((definition) => !remoteOf(config, definition));
}
