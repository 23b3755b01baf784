import { ServiceError } from '../../domain/errors';
import type { MetricsPort } from '../../ports/metrics.port';
import type { Params } from '../../ports/service-params';
import { TRACE_PARENT, type TracerPort } from '../../ports/tracer.port';
import { argumentNames } from '../app/service-call';
import type { AdapterBase } from './adapter-base';

const STORE_METHODS = ['_find', '_get', '_create', '_update', '_patch', '_remove'] as const;

/** Where a store keeps its records, as the database spans and the metrics name it. */
export interface StoreLocation {
  /** `db.system.name`: `mongodb`, or `memory` for the in-process store. */
  readonly system: string;
  /** The collection (the service's path). */
  readonly collection: string;
}

/**
 * Watches each of the store's own methods (`_find` ... `_remove`, what every call of the store
 * reaches): with a tracer, a database span named `<operation> <collection>`, a child of the
 * span the call's params carry (the service call's); with metrics, the store's own failures
 * counted (an unreachable database, an unexpected error: not the 4xx answers such as NotFound or
 * Conflict). Installed on the instance, only when one of them is on: otherwise the store is untouched.
 */
export function observeStoreCalls(
  store: AdapterBase,
  observers: { tracer?: TracerPort; metrics?: MetricsPort },
  location: StoreLocation,
): void {
  const { tracer, metrics } = observers;
  if (!tracer && !metrics) return;
  const role = location.system === 'memory' ? 'internal' : 'client';
  for (const name of STORE_METHODS) {
    const method = store[name] as (...args: unknown[]) => Promise<unknown>;
    const operation = name.slice(1);
    const counted = metrics
      ? (args: unknown[]) =>
          method.apply(store, args).catch((error: unknown) => {
            if (!(error instanceof ServiceError) || error.code >= 500)
              metrics.storeError(location.collection, operation);
            throw error;
          })
      : (args: unknown[]) => method.apply(store, args);
    const attributes = {
      'db.system.name': location.system,
      'db.collection.name': location.collection,
      'db.operation.name': operation,
    };
    const start = { role, attributes: () => attributes } as const;
    const spanName = `${operation} ${location.collection}`;
    const paramsAt = argumentNames(operation).indexOf('params');
    Object.defineProperty(store, name, {
      value: tracer
        ? (...args: unknown[]) =>
            tracer.inSpan(spanName, start, (args[paramsAt] as Params | undefined)?.[TRACE_PARENT], () => counted(args))
        : (...args: unknown[]) => counted(args),
      configurable: true,
      writable: true,
    });
  }
}
