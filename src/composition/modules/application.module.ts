import { ContainerModule } from 'inversify';
import { createApp } from '../../application/app/application';
import { registerService } from '../../application/services/register-service';
import type { AppConfig } from '../app-config';
import { remoteOf } from '../remote-name';
import { Tokens } from '../tokens';

/** The application: authentication, then every defined service on its store, with its hooks. */
export function applicationModule(config: AppConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Tokens.app)
      .toResolvedValue(
        (definitions, storeFor, passwordHasher, configureAuthentication) => {
          const app = createApp();
          app.set('config', config);
          app.configure(configureAuthentication);
          for (const definition of definitions) {
            registerService(app, definition, storeFor(definition), { passwordHasher, storesLocally: !remoteOf(config, definition) });
          }
          return app;
        },
        [Tokens.services.definitions, Tokens.services.storeFor, Tokens.auth.passwordHasher, Tokens.auth.configure],
      )
      .inSingletonScope();
  });
}
