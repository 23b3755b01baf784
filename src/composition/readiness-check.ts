import type { RemoteBinding } from '../adapters/rest-client/remote-binding';
import { Unavailable } from '../domain/errors';
import type { DatabaseConnection } from './database-connection';

/**
 * Ready when the database (if one was opened) answers a ping and every remote service that
 * counts for readiness accepts this server's credential; the first failure names what is down.
 */
export function readinessCheck(
  database: DatabaseConnection | undefined,
  remotes: readonly RemoteBinding[],
): () => Promise<boolean> {
  const counted = remotes.filter((remote) => remote.readiness);
  return async () => {
    const [databaseUp] = await Promise.all([
      database ? database.ping() : true,
      ...counted.map((remote) => remote.check()),
    ]);
    if (!databaseUp) throw new Unavailable('The database is unavailable');
    return true;
  };
}
