import type { Application } from '../app/application';
import type { RealTimeConnection } from '../channels/connection';
import { recordIdOf } from './record-id';
import type { ServiceDefinition } from './service-definition';

/** The channel of one user's own connections. */
export const userChannel = (id: unknown): string => `users/${String(id)}`;

/**
 * Which connection is in which channel: one that has not signed in is in `anonymous` (no
 * definition publishes there); a signed-in one is in `authenticated` and in its user's channel
 * (`userChannel`). Logout and token expiry put the connection back in `anonymous`. Each
 * definition's `publish` then says which of these channels hear its events (messages: everyone
 * signed in; users: that user's own connections); publishers decide from the published record
 * alone, so events from other instances are routed the same way.
 */
export function configureSkeletonChannels(app: Application, definitions: readonly ServiceDefinition[]): void {
  app.on('connection', (connection: RealTimeConnection) => {
    app.channel('anonymous').join(connection);
  });
  app.on('login', (_result: unknown, { connection }: { connection?: RealTimeConnection }) => {
    if (!connection) return;
    app.channel('anonymous').leave(connection);
    app.channel('authenticated').join(connection);
    const id = recordIdOf(connection.user);
    if (id !== undefined && id !== null) app.channel(userChannel(id)).join(connection);
  });
  app.on('logout', (_result: unknown, { connection }: { connection?: RealTimeConnection }) => {
    if (connection) app.channel('anonymous').join(connection);
  });
  for (const definition of definitions) {
    if (definition.publish && app.lookup(definition.path))
      app.service(definition.path).publish(definition.publish(app));
  }
}
