import type { TracerPort } from '../../ports/tracer.port';
import type { AdapterBase } from './adapter-base';

const STORE_METHODS = ['_find', '_get', '_create', '_update', '_patch', '_remove'] as const;

/** Where a store keeps its records, as the database spans name it. */
export interface StoreLocation {
  /** `db.system.name`: `mongodb`, or `memory` for the in-process store. */
  readonly system: string;
  /** The collection (the service's path). */
  readonly collection: string;
}

/**
 * Gives each of the store's own methods (`_find` ... `_remove`, what every call of the store
 * reaches) a database span named `<operation> <collection>`, a child of the service call's span.
 * Installed on the instance, only when tracing is on: without it the store is untouched.
 */
export function traceStoreCalls(store: AdapterBase, tracer: TracerPort, location: StoreLocation): void {
  const role = location.system === 'memory' ? 'internal' : 'client';
  for (const name of STORE_METHODS) {
    const method = store[name] as (...args: unknown[]) => Promise<unknown>;
    const operation = name.slice(1);
    const attributes = { 'db.system.name': location.system, 'db.collection.name': location.collection, 'db.operation.name': operation };
    Object.defineProperty(store, name, {
      value: (...args: unknown[]) => tracer.inSpan(`${operation} ${location.collection}`, { role, attributes }, () => method.apply(store, args)),
      configurable: true, writable: true,
    });
  }
}
