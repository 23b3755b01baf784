import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient, type Document } from 'mongodb';
import { normalizeEmailAddress } from '../src/application/services/users/email-address';
import { USER_IDENTITY } from '../src/application/services/users/user-identity';
import { EMBEDDED_DATABASE_NAME } from '../src/composition/database-connection';
import { loadConfig } from '../src/composition/load-config';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/embedded-mongo';
import { socketPathIn, socketUrl } from '../src/embedded-mongo/private-socket';

const USAGE =
  'usage: npm run grant-role -- <email> <role> [--revoke]   (a role: a lower-case letter, then letters, digits, _ or ' +
  '-, at most 32)';
const ROLE = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * `npm run grant-role -- ada@example.com admin` (`--revoke` takes it away), run with the server's
 * configuration: changes the roles stored on the account in the server's store. MONGODB_URL when
 * set; else the embedded database in DATA_DIR, through the running server's private socket when it
 * runs, or opened here when it does not. Roles are never written through the API. Every call loads
 * its user, so the change holds from the user's next call, whatever token they hold.
 */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { revoke: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 2 || !ROLE.test(positionals[1])) throw new Error(USAGE);
  const email = normalizeEmailAddress(positionals[0]);
  const role = positionals[1];
  const config = loadConfig();
  if (config.store === 'memory')
    throw new Error('STORE=memory keeps no accounts between runs: there is nothing to change here');
  if (!config.mongodbUrl && config.dataDir === ':memory:')
    throw new Error('DATA_DIR=:memory: keeps no accounts between runs: there is nothing to change here');
  const { url, embedded } = await databaseUrl(config.mongodbUrl, config.dataDir);
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    const users = client.db(config.mongodbUrl ? undefined : EMBEDDED_DATABASE_NAME).collection(USER_IDENTITY.path);
    const field = USER_IDENTITY.rolesField;
    const change: Document = values.revoke ? { $pull: { [field]: role } } : { $addToSet: { [field]: role } };
    const result = await users.updateOne({ [USER_IDENTITY.loginField]: email }, change);
    if (result.matchedCount === 0) throw new Error(`no account has the e-mail ${String(email).slice(0, 254)}`);
    const verb = values.revoke
      ? result.modifiedCount > 0
        ? 'revoked'
        : 'did not have'
      : result.modifiedCount > 0
        ? 'granted'
        : 'already had';
    console.log(`${String(email)} ${verb} the role ${role}; it applies from their next call`);
  } finally {
    await client.close();
    await embedded?.stop();
  }
}

/** Where the accounts are: MONGODB_URL, the running server's private socket, or DATA_DIR opened here. */
async function databaseUrl(
  mongodbUrl: string | undefined,
  dataDir: string,
): Promise<{ url: string; embedded?: EmbeddedMongo }> {
  if (mongodbUrl) return { url: mongodbUrl };
  const socketPath = socketPathIn(dataDir);
  if (socketPath && existsSync(socketPath)) return { url: socketUrl(socketPath) };
  const embedded = await startEmbeddedMongo({ privateSocket: true, dataDir: path.resolve(dataDir) });
  return { url: embedded.url, embedded };
}

main().catch((error: Error) => {
  console.error(`grant-role: ${error.message}`);
  process.exit(1);
});
