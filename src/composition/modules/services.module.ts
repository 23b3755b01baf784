import { ContainerModule, type ResolutionContext } from 'inversify';
import { MemoryService } from '../../adapters/memory';
import { DatabaseService } from '../../adapters/mongo';
import { rest } from '../../adapters/rest-client';
import type { ServiceMethods } from '../../ports/service.port';
import type { AppConfig, ServiceName } from '../app-config';
import { Tokens } from '../tokens';

const PAGINATE = { default: 10, max: 50 };

/** How each service's local collection is prepared (indexes inside the Model chain, per the seed). */
const COLLECTIONS: Record<ServiceName, (db: import('mongodb').Db) => Promise<import('mongodb').Collection>> = {
  users: async (db) => {
    const collection = db.collection('users');
    await collection.createIndex({ email: 1 }, { unique: true });
    return collection;
  },
  messages: async (db) => {
    const collection = db.collection('messages');
    await collection.createIndex({ userId: 1, createdAt: -1 });
    return collection;
  },
};

/**
 * Binds every service to its store by configuration: another server's REST API when
 * `<NAME>_REMOTE_URL` is set, else the in-memory adapter or a MongoDB collection (`STORE`).
 */
export function servicesModule(config: AppConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    for (const name of Object.keys(COLLECTIONS) as ServiceName[]) {
      bind(Tokens.services[name]).toDynamicValue((context) => createStore(name, config, context)).inSingletonScope();
    }
  });
}

async function createStore(name: ServiceName, config: AppConfig, context: ResolutionContext): Promise<ServiceMethods> {
  const remote = config.remotes[name];
  if (remote) {
    const headers: Record<string, string> = remote.token ? { Authorization: `Bearer ${remote.token}` } : {};
    return rest(remote.url).fetch(fetch, { headers }).service(name) as unknown as ServiceMethods;
  }
  if (config.store === 'memory') return new MemoryService({ paginate: PAGINATE }) as unknown as ServiceMethods;
  const database = await context.getAsync(Tokens.infrastructure.database);
  return new DatabaseService({ Model: COLLECTIONS[name](database.db), paginate: PAGINATE }) as unknown as ServiceMethods;
}
