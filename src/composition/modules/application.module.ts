import { ContainerModule } from 'inversify';
import { createApp } from '../../application/app/application';
import { messagesHooks } from '../../application/services/messages/messages.hooks';
import { MESSAGES_METHODS, withMessageMethods } from '../../application/services/messages/messages.methods';
import { USERS_METHODS, usersHooks } from '../../application/services/users/users.hooks';
import type { AppConfig } from '../app-config';
import { Tokens } from '../tokens';

/** The application: each service registered on its store, with its hooks. */
export function applicationModule(config: AppConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Tokens.app)
      .toResolvedValue(
        (users, messages, passwordHasher, configureAuthentication) => {
          const app = createApp();
          app.set('config', config);
          app.configure(configureAuthentication);
          app.use('users', users, { methods: [...USERS_METHODS] });
          app.service('users').hooks(usersHooks({ passwordHasher, storesLocally: !config.remotes.users }));
          // A remote store forwards markRead to the server that owns it; a local store gets it here.
          app.use('messages', config.remotes.messages ? messages : withMessageMethods(messages), { methods: [...MESSAGES_METHODS] });
          app.service('messages').hooks(messagesHooks({ storesLocally: !config.remotes.messages }));
          return app;
        },
        [Tokens.services.users, Tokens.services.messages, Tokens.auth.passwordHasher, Tokens.auth.configure],
      )
      .inSingletonScope();
  });
}
