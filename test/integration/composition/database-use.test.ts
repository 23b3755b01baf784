import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { createJwtSettings, signServiceCredential } from '../../../src/adapters/passport';
import { SERVICES } from '../../../src/application/services/service-list';
import { composeApplication, type ComposedApplication } from '../../../src/composition-root';
import { credentialScopes } from '../../../src/composition/credential-scopes';
import { ConfigError, loadConfig } from '../../../src/composition/load-config';
import { remoteNameOf } from '../../../src/composition/store-plan';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/embedded-mongo';
import { fixtureNotesService } from '../../fixtures/services/fixture-notes.definition';

const SECRET = 'database-use-secret-that-is-long-enough-00';
/** What the remote issued to this server (`npm run service-credential`). */
const DEFINITIONS = [...SERVICES, fixtureNotesService];
const { credential } = signServiceCredential(
  createJwtSettings({ secret: SECRET }),
  'composition-test',
  credentialScopes(DEFINITIONS, DEFINITIONS.map((definition) => definition.path).join(',')),
);
const NAMES = DEFINITIONS.map((definition) => definition.path);
/** `<NAME>_REMOTE_URL` and `<NAME>_REMOTE_TOKEN` binding `names` to the server at `url`. */
const remoteBindings = (names: readonly string[], url: string) =>
  Object.fromEntries(
    names.flatMap((name) => [
      [`${remoteNameOf(name).toUpperCase()}_REMOTE_URL`, url],
      [`${remoteNameOf(name).toUpperCase()}_REMOTE_TOKEN`, credential],
    ]),
  );

/** Connections the embedded server has open (the monitoring client's own included). */
async function connections(monitor: MongoClient): Promise<number> {
  const status = await monitor.db('admin').command({ serverStatus: 1 });
  return status.connections.current as number;
}

/** Polls (at most 5 s) until `count` holds: the driver closes its sockets asynchronously. */
async function settle(monitor: MongoClient, holds: (count: number) => boolean): Promise<number> {
  let count = await connections(monitor);
  for (let attempt = 0; attempt < 50 && !holds(count); attempt++) {
    await sleep(100);
    count = await connections(monitor);
  }
  return count;
}

function compose(env: Record<string, string>): Promise<ComposedApplication> {
  const config = loadConfig({
    NODE_ENV: 'test',
    STORE: 'mongo',
    AUTH_SECRET: SECRET,
    PASSWORD_HASH_COST: '10',
    DATABASE_TIMEOUT_MS: '3000',
    ...env,
  });
  return composeApplication(config, { services: DEFINITIONS });
}

describe('the database opens when, and only when, some service is stored locally in MongoDB', () => {
  let database: EmbeddedMongo;
  let monitor: MongoClient;
  let remote: ComposedApplication;
  let remoteServer: Server;
  let remoteUrl: string;

  beforeAll(async () => {
    database = await startEmbeddedMongo({ host: '127.0.0.1', port: 0 });
    monitor = await new MongoClient(database.url, { maxPoolSize: 1 }).connect();
    // The server remote bindings point at: every service on its memory store.
    remote = await composeApplication(
      loadConfig({ NODE_ENV: 'test', STORE: 'memory', AUTH_SECRET: SECRET, PASSWORD_HASH_COST: '10' }),
      { services: DEFINITIONS },
    );
    remoteServer = createServer(remote.http);
    await new Promise<void>((resolve) => remoteServer.listen(0, '127.0.0.1', resolve));
    remoteUrl = `http://127.0.0.1:${(remoteServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => remoteServer.close(resolve));
    await remote.close();
    await monitor.close();
    await database.stop();
  });

  // None remote, each one alone remote, each one alone local, all remote: for the skeleton's two
  // services and the fixture that is every combination; a project with more services gets 2n + 2
  // of them, not 2^n.
  const combinations = [
    [],
    ...NAMES.map((name) => [name]),
    ...NAMES.map((name) => NAMES.filter((other) => other !== name)),
    NAMES,
  ].filter((remotes, index, all) => all.findIndex((other) => other.join(',') === remotes.join(',')) === index);
  it.each(combinations.map((remotes) => [remotes.join(', ') || 'none', remotes]))(
    'remote: %s',
    async (_label, remotes) => {
      const baseline = await settle(monitor, () => true);
      const composed = await compose({ MONGODB_URL: database.url, ...remoteBindings(remotes as string[], remoteUrl) });
      const storesLocally = (remotes as string[]).length < NAMES.length;
      try {
        // Nothing to wait for when no connection is expected: a short pause, then one reading.
        const opened = storesLocally
          ? await settle(monitor, (count) => count > baseline)
          : await sleep(300).then(() => connections(monitor));
        expect(opened > baseline).toBe(storesLocally);
        const ready = await request(composed.http).get('/ready');
        expect(ready.status).toBe(200);
      } finally {
        await composed.close();
      }
      expect(await settle(monitor, (count) => count <= baseline)).toBe(baseline);
    },
  );

  it('closes the database it opened when the composition fails half-way', async () => {
    const baseline = await settle(monitor, () => true);
    // Refused when the services are registered, after the database was connected.
    const broken = {
      ...fixtureNotesService,
      relations: { author: { service: 'users', field: 'userId' } },
    } as unknown as typeof fixtureNotesService;
    const config = loadConfig({
      NODE_ENV: 'test',
      STORE: 'mongo',
      AUTH_SECRET: SECRET,
      PASSWORD_HASH_COST: '10',
      MONGODB_URL: database.url,
    });
    await expect(composeApplication(config, { services: [...SERVICES, broken] })).rejects.toThrow(
      /declares relations but no policy/,
    );
    expect(await settle(monitor, (count) => count <= baseline)).toBe(baseline);
  });

  it('/ready pings the database of the one local service when all the others are remote', async () => {
    const own = await startEmbeddedMongo({ host: '127.0.0.1', port: 0 });
    const composed = await compose({
      MONGODB_URL: own.url,
      DATABASE_OPERATION_TIMEOUT_MS: '500',
      ...remoteBindings(
        NAMES.filter((name) => name !== fixtureNotesService.path),
        remoteUrl,
      ),
    });
    try {
      expect((await request(composed.http).get('/ready')).status).toBe(200);
      await own.stop();
      expect((await request(composed.http).get('/ready')).status).toBe(503);
    } finally {
      await composed.close();
      await own.stop();
    }
  });

  it('refuses a remote binding that names no service, with one line naming the variable', async () => {
    await expect(compose({ MONGODB_URL: database.url, FOO_REMOTE_URL: remoteUrl })).rejects.toThrow(ConfigError);
    await expect(compose({ MONGODB_URL: database.url, FOO_REMOTE_URL: remoteUrl })).rejects.toMatchObject({
      message: `FOO_REMOTE_URL names no service (known: ${NAMES.map(remoteNameOf).join(', ')})`,
    });
  });
});
