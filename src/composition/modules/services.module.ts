import { ContainerModule } from 'inversify';
import type { ServiceDefinition } from '../../application/services/service-definition';
import type { AppConfig } from '../app-config';
import { createStore } from '../create-store';
import { usesLocalDatabase } from '../remote-name';
import { Tokens } from '../tokens';

/**
 * The service definitions and a store for each: the database connection is resolved (and so
 * opened) only when some definition is stored locally in MongoDB.
 */
export function servicesModule(config: AppConfig, definitions: readonly ServiceDefinition[]): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Tokens.services.definitions).toConstantValue(definitions);
    bind(Tokens.services.storeFor)
      .toDynamicValue(async (context) => {
        const database = usesLocalDatabase(config, definitions) ? await context.getAsync(Tokens.infrastructure.database) : undefined;
        return (definition: ServiceDefinition) => createStore(definition, config, database?.db);
      })
      .inSingletonScope();
  });
}
