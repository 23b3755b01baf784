import { createHash } from 'node:crypto';
import { ContainerModule } from 'inversify';
import { bindRemote, type RemoteBinding } from '../../adapters/rest-client/remote-binding';
import type { ServiceDefinition } from '../../application/services/service-definition';
import { IDEMPOTENCY_KEYS } from '../../application/idempotency/idempotency-keys.definition';
import { IdempotencyRecords } from '../../application/idempotency/idempotency-records';
import type { AppConfig } from '../app-config';
import { createStore } from '../create-store';
import { createRemoteConnectionPool } from '../remote-connection-pool';
import { planStores } from '../store-plan';
import { Tokens } from '../tokens';

/**
 * The service definitions, their store plans, a binding for each one stored on another server,
 * and a store for each: the database connection is resolved (and so opened) only when some plan
 * stores locally in MongoDB. Planning here stops the composition on a `<NAME>_REMOTE_URL` that
 * names no service.
 */
export function servicesModule(config: AppConfig, definitions: readonly ServiceDefinition[]): ContainerModule {
  const plans = planStores(config, definitions);
  return new ContainerModule(({ bind }) => {
    bind(Tokens.services.definitions).toConstantValue(definitions);
    bind(Tokens.services.storePlans).toConstantValue(plans);
    bind(Tokens.services.remoteBindings)
      .toResolvedValue(
        (logger, { tracer, metrics }) => {
          const bindings = new Map<string, RemoteBinding>();
          for (const definition of definitions) {
            const plan = plans.of(definition.path);
            if (plan.store === 'remote')
              bindings.set(
                definition.path,
                bindRemote(definition, plan.remote, logger, createRemoteConnectionPool(config.remotePool), {
                  tracer,
                  metrics,
                }),
              );
          }
          return bindings as ReadonlyMap<string, RemoteBinding>;
        },
        [Tokens.infrastructure.logger, Tokens.infrastructure.telemetry],
      )
      .inSingletonScope()
      .onDeactivation(async (bindings) => {
        await Promise.all([...bindings.values()].map((binding) => binding.close()));
      });
    bind(Tokens.services.storeFor)
      .toDynamicValue(async (context) => {
        const database = plans.usesDatabase ? await context.getAsync(Tokens.infrastructure.database) : undefined;
        const remotes = context.get(Tokens.services.remoteBindings);
        const { tracer, metrics } = context.get(Tokens.infrastructure.telemetry);
        return (definition: ServiceDefinition) => {
          const plan = plans.of(definition.path);
          return plan.store === 'remote'
            ? remotes.get(definition.path)!.store
            : createStore(definition, plan.store, database?.db, { tracer, metrics });
        };
      })
      .inSingletonScope();
    bind(Tokens.services.idempotencyRecords)
      .toDynamicValue(async (context) => {
        if (definitions.every((definition) => plans.of(definition.path).store === 'remote')) return undefined;
        const database = config.store === 'mongo' ? await context.getAsync(Tokens.infrastructure.database) : undefined;
        const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
        return new IdempotencyRecords(
          createStore(IDEMPOTENCY_KEYS, config.store, database?.db),
          config.idempotencyTtlMs,
          sha256,
        );
      })
      .inSingletonScope();
  });
}
