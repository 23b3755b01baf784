import { ContainerModule } from 'inversify';
import { createApp } from '../../application/app/application';
import { observeServiceCalls } from '../../application/observability/observe-service-calls';
import { registerService } from '../../application/services/register-service';
import { Tokens } from '../tokens';

/**
 * The application: authentication, then every defined service on its store, with its hooks; unbinding tears it down.
 */
export function applicationModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Tokens.app)
      .toResolvedValue(
        (definitions, plans, storeFor, passwordHasher, configureAuthentication, idempotency, telemetry) => {
          const app = createApp();
          app.observeCall = observeServiceCalls(telemetry.tracer, telemetry.metrics);
          app.configure(configureAuthentication);
          for (const definition of definitions) {
            const plan = plans.of(definition.path);
            const remote = plan.store === 'remote' ? plan.remote : undefined;
            // A binding with a credential hears the storing server's events (wireRealtime subscribes).
            registerService(app, definition, storeFor(definition), {
              passwordHasher,
              idempotency,
              storesLocally: !remote,
              eventsFromStoringServer: remote?.token !== undefined,
            });
          }
          return app;
        },
        [
          Tokens.services.definitions,
          Tokens.services.storePlans,
          Tokens.services.storeFor,
          Tokens.auth.passwordHasher,
          Tokens.auth.configure,
          Tokens.services.idempotencyRecords,
          Tokens.infrastructure.telemetry,
        ],
      )
      .inSingletonScope()
      .onDeactivation(async (app) => {
        await app.teardown();
      });
  });
}
