import type { RemoteSettings } from '../adapters/rest-client/remote-binding';
import type { ServiceDefinition } from '../application/services/service-definition';
import type { AppConfig } from './app-config';
import { ConfigError } from './load-config';

/** Where one service's records live: this process's memory, the local MongoDB, or another server. */
export type StorePlan =
  | { readonly store: 'memory' }
  | { readonly store: 'mongo' }
  | { readonly store: 'remote'; readonly remote: RemoteSettings };

/** The plan of every composed service, made once from the configuration: the one place that decides. */
export interface StorePlans {
  /** The plan of the service at `path`. */
  of(path: string): StorePlan;
  /** Some service is stored locally in MongoDB: only then does the database open (and `/ready` ping it). */
  readonly usesDatabase: boolean;
}

/** The name of a service in its `<NAME>_REMOTE_URL` variable, lower-cased: `api/notes` -> `api_notes`. */
export function remoteNameOf(path: string): string {
  return path.toLowerCase().replace(/[^a-z0-9]/g, '_');
}

/**
 * A service with a `<NAME>_REMOTE_URL` is stored on that server; every other one in `STORE`.
 * A `<NAME>_REMOTE_URL` naming no service is a mistake worth stopping for (a typo binds nothing).
 */
export function planStores(
  config: Pick<AppConfig, 'store' | 'remotes'>,
  definitions: readonly ServiceDefinition[],
): StorePlans {
  const known = definitions.map((definition) => remoteNameOf(definition.path));
  for (const name of Object.keys(config.remotes)) {
    if (!known.includes(name))
      throw new ConfigError(`${name.toUpperCase()}_REMOTE_URL names no service (known: ${known.join(', ')})`);
  }
  const plans = new Map<string, StorePlan>();
  for (const definition of definitions) {
    const name = remoteNameOf(definition.path);
    // Own entries only: a service named `constructor` is not bound to `Object.prototype`'s.
    const remote = Object.hasOwn(config.remotes, name) ? config.remotes[name] : undefined;
    plans.set(definition.path, remote ? { store: 'remote', remote } : { store: config.store });
  }
  return {
    of(path) {
      const plan = plans.get(path);
      if (!plan) throw new Error(`No store is planned for '${path}': it is not among the composed services`);
      return plan;
    },
    usesDatabase: [...plans.values()].some((plan) => plan.store === 'mongo'),
  };
}
