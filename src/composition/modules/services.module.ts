import { ContainerModule, type ResolutionContext } from 'inversify';
import { MemoryService } from '../../adapters/memory';
import { DatabaseService } from '../../adapters/mongo';
import { rest } from '../../adapters/rest-client';
import { MESSAGES_METHODS } from '../../application/services/messages/messages.methods';
import { USERS_METHODS } from '../../application/services/users/users.hooks';
import type { ServiceMethods } from '../../ports/service.port';
import type { AppConfig, ServiceName } from '../app-config';
import { forwardToRemote } from '../forward-to-remote';
import { Tokens } from '../tokens';

const PAGINATE = { default: 10, max: 50 };

/** Every method of each service, custom ones included: what a remote binding forwards. */
const SERVICE_METHODS: Record<ServiceName, readonly string[]> = { users: USERS_METHODS, messages: MESSAGES_METHODS };

/** Update operators each service's patch data may carry (validated by the service's hooks first). */
const UPDATE_OPERATORS: Record<ServiceName, string[]> = { users: [], messages: ['$inc'] };

/** The memory store's stand-in for the unique indexes below. */
const UNIQUE_FIELDS: Record<ServiceName, string[]> = { users: ['email'], messages: [] };

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
    return forwardToRemote(rest(remote.url).fetch(fetch, { headers }).service(name), SERVICE_METHODS[name]) as unknown as ServiceMethods;
  }
  const updateOperators = UPDATE_OPERATORS[name];
  if (config.store === 'memory') return new MemoryService({ paginate: PAGINATE, updateOperators, unique: UNIQUE_FIELDS[name] }) as unknown as ServiceMethods;
  const database = await context.getAsync(Tokens.infrastructure.database);
  return new DatabaseService({ Model: COLLECTIONS[name](database.db), paginate: PAGINATE, updateOperators }) as unknown as ServiceMethods;
}
