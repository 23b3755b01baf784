import { ContainerModule } from 'inversify';
import type { ServiceDefinition } from '../../application/services/service-definition';
import type { AppConfig } from '../app-config';
import { createStore } from '../create-store';
import { bindRemote, type RemoteBinding } from '../remote-binding';
import { remoteOf, usesLocalDatabase } from '../remote-name';
import { Tokens } from '../tokens';

/**
 * The service definitions, a binding for each one stored on another server, and a store for
 * each: the database connection is resolved (and so opened) only when some definition is stored
 * locally in MongoDB.
 */
export function servicesModule(config: AppConfig, definitions: readonly ServiceDefinition[]): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Tokens.services.definitions).toConstantValue(definitions);
    bind(Tokens.services.remoteBindings)
      .toResolvedValue((logger) => {
        const bindings = new Map<string, RemoteBinding>();
        for (const definition of definitions) {
          const remote = remoteOf(config, definition);
          if (remote) bindings.set(definition.path, bindRemote(definition, remote, logger, config.remotePool));
        }
        return bindings as ReadonlyMap<string, RemoteBinding>;
      }, [Tokens.infrastructure.logger])
      .inSingletonScope();
    bind(Tokens.services.storeFor)
      .toDynamicValue(async (context) => {
        const database = usesLocalDatabase(config, definitions) ? await context.getAsync(Tokens.infrastructure.database) : undefined;
        const remotes = context.get(Tokens.services.remoteBindings);
        return (definition: ServiceDefinition) => createStore(definition, config, database?.db, remotes.get(definition.path));
      })
      .inSingletonScope();
  });
}
