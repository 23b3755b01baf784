import { randomUUID } from 'node:crypto';
import { ObjectId } from 'bson';
import type { Collection, Db } from 'mongodb';
import { MemoryService } from '../adapters/memory';
import { DatabaseService } from '../adapters/mongo';
import { observeStoreCalls } from '../application/adapter/observe-store-calls';
import { idOf, type IdType, type ServiceDefinition } from '../application/services/service-definition';
import { copyWith } from '../domain/plain-record';
import type { ServiceOptions } from '../ports/service-options';
import type { ServiceMethods } from '../ports/service.port';
import type { MetricsPort } from '../ports/metrics.port';
import type { TracerPort } from '../ports/tracer.port';
import type { StorePlan } from './store-plan';

/** How the memory store makes ids of each type; MongoDB makes ObjectIds itself. */
const MEMORY_IDS: Record<IdType, () => string> = { objectid: () => new ObjectId().toHexString(), uuid: randomUUID };

/**
 * The local store of one service, by its plan: the in-memory adapter or a MongoDB collection,
 * with the definition's id type, pagination, unique fields, TTL indexes, update operators and
 * server-owned fields. (A service planned on another server is stored by its remote binding.) With a tracer,
 * each store call is a database span; with metrics, the store's failures are counted.
 */
export function createStore(
  definition: ServiceDefinition,
  store: Exclude<StorePlan['store'], 'remote'>,
  db: Db | undefined,
  observers: { tracer?: TracerPort; metrics?: MetricsPort } = {},
): ServiceMethods {
  const id = idOf(definition);
  const options: ServiceOptions & { updateOperators?: string[] } = {
    id: id.field,
    paginate: definition.paginate ?? false,
    multi: definition.multi ?? false,
    // A policy's `cannot` rules with conditions become `$nor` branches of the store query.
    operators: [...(definition.operators ?? []), ...(definition.policy ? ['$nor'] : [])],
    filters: definition.filters ?? {},
    events: [...(definition.events ?? [])],
    updateOperators: [...(definition.updateOperators ?? [])],
    // `update` keeps these in the store's own single write (no read-then-replace race).
    keepOnReplace: [...(definition.serverOwnedFields ?? [])],
  };
  if (store === 'memory') {
    const unique = (definition.indexes ?? []).filter((index) => index.unique).map((index) => Object.keys(index.fields));
    const expireAfter = (definition.indexes ?? []).flatMap((index) =>
      index.expireAfterSeconds === undefined
        ? []
        : [{ field: Object.keys(index.fields)[0], seconds: index.expireAfterSeconds }],
    );
    const memory = new MemoryService(copyWith(options, { unique, expireAfter, generateId: MEMORY_IDS[id.type] }));
    observeStoreCalls(memory, observers, { system: 'memory', collection: definition.path });
    return memory as unknown as ServiceMethods;
  }
  if (!db) throw new Error(`Service '${definition.path}' is stored in MongoDB but no database was opened`);
  const collection = new DatabaseService(
    copyWith(options, {
      Model: prepareCollection(db, definition),
      disableObjectify: id.type !== 'objectid',
      generateId: id.type === 'uuid' ? randomUUID : undefined,
    }),
  );
  observeStoreCalls(collection, observers, { system: 'mongodb', collection: definition.path });
  return collection as unknown as ServiceMethods;
}

/** The service's collection with its indexes (inside the Model promise, per the seed). */
async function prepareCollection(db: Db, definition: ServiceDefinition): Promise<Collection> {
  const collection = db.collection(definition.path);
  for (const index of definition.indexes ?? []) {
    await collection.createIndex(index.fields, {
      unique: index.unique === true,
      ...(index.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: index.expireAfterSeconds }),
    });
  }
  return collection;
}
