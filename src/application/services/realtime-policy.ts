import type { Application } from '../app/application';
import type { RealTimeConnection } from '../channels/connection';

/** The channel of one user's own connections. */
export const userChannel = (id: unknown): string => `users/${String(id)}`;

function idOf(record: Record<string, any> | undefined): unknown {
  return record?.id ?? record?._id;
}

/**
 * Who hears which event in the skeleton: a connection that has not signed in is in `anonymous`
 * and hears nothing; a signed-in one is in `authenticated` (it hears `messages` events) and in
 * its user's channel (it hears `users` events about itself only). Logout and token expiry put
 * the connection back in `anonymous`. Publishers decide from the published record alone, so
 * events from other instances are routed the same way.
 */
export function configureSkeletonChannels(app: Application): void {
  app.on('connection', (connection: RealTimeConnection) => {
    app.channel('anonymous').join(connection);
  });
  app.on('login', (_result: unknown, { connection }: { connection?: RealTimeConnection }) => {
    if (!connection) return;
    app.channel('anonymous').leave(connection);
    app.channel('authenticated').join(connection);
    const id = idOf(connection.user);
    if (id !== undefined && id !== null) app.channel(userChannel(id)).join(connection);
  });
  app.on('logout', (_result: unknown, { connection }: { connection?: RealTimeConnection }) => {
    if (connection) app.channel('anonymous').join(connection);
  });
  app.service('messages').publish(() => app.channel('authenticated'));
  app.service('users').publish((user: Record<string, any>) => {
    const id = idOf(user);
    return id === undefined || id === null ? null : app.channel(userChannel(id));
  });
}
