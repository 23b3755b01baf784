import type { ServiceDefinition } from '../../../src/application/services/service-definition';
import { ConfigError, loadConfig } from '../../../src/composition/load-config';
import { planStores } from '../../../src/composition/store-plan';

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      host: '127.0.0.1',
      port: 3030,
      store: 'mongo',
      dataDir: './data',
      remotes: {},
    });
    expect(config.mongodbUrl).toBeUndefined();
    expect(config).toMatchObject({
      socketMaxCallsInFlight: 32,
      remotePool: { connections: 64, queueTimeoutMs: 5_000, maxWaiting: 1_000 },
    });
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT must be an integer/],
    [{ PORT: '70000' }, /^PORT must be an integer/],
    [{ STORE: 'postgres' }, /^STORE must be one of mongo, memory/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ MONGODB_URL: 'http://x' }, /^MONGODB_URL must start with mongodb:\/\//],
    [{ NODE_ENV: 'production' }, /^AUTH_SECRET must be set to at least 32 bytes/],
    [{ NODE_ENV: 'production', AUTH_SECRET: 'short' }, /^AUTH_SECRET must be set to at least 32 bytes/],
    [{ AUTH_SECRET: 'short' }, /^AUTH_SECRET must be at least 32 bytes/],
    [{ MESSAGES_REMOTE_URL: 'not a url' }, /^MESSAGES_REMOTE_URL must be an absolute http\(s\) URL/],
    [{ MESSAGES_REMOTE_URL: 'ftp://127.0.0.1' }, /^MESSAGES_REMOTE_URL must be an http\(s\) URL/],
    [
      { MESSAGES_REMOTE_URL: 'http://127.0.0.1', MESSAGES_REMOTE_READINESS: 'no' },
      /^MESSAGES_REMOTE_READINESS must be one of true, false/,
    ],
    [{ SERVICE_CREDENTIALS_REVOKED: 'abc' }, /^SERVICE_CREDENTIALS_REVOKED must list credential ids/],
    [{ JWT_EXPIRES_IN: 'forever' }, /^JWT_EXPIRES_IN must be a number of seconds/],
    [{ JWT_AUDIENCE: 'has space' }, /^JWT_AUDIENCE must be 1 to 200 visible characters without spaces/],
    [{ JWT_ISSUER: 'x'.repeat(201) }, /^JWT_ISSUER must be 1 to 200 visible characters without spaces/],
    [{ BCRYPT_COST: '12' }, /^BCRYPT_COST is no longer read: .*set PASSWORD_HASH_COST/],
    [{ PASSWORD_HASH_COST: '9' }, /^PASSWORD_HASH_COST must be an integer from 10 to 20/],
    [{ PASSWORD_HASH_COST: '21' }, /^PASSWORD_HASH_COST must be an integer from 10 to 20/],
    [{ PASSWORD_HASH_CONCURRENCY: '0' }, /^PASSWORD_HASH_CONCURRENCY must be an integer/],
    [{ PASSWORD_HASH_CONCURRENCY: '4' }, /^PASSWORD_HASH_CONCURRENCY must be below UV_THREADPOOL_SIZE \(4\)/],
    [
      { PASSWORD_HASH_CONCURRENCY: '8', UV_THREADPOOL_SIZE: '8' },
      /^PASSWORD_HASH_CONCURRENCY must be below UV_THREADPOOL_SIZE \(8\)/,
    ],
    [{ PASSWORD_HASH_QUEUE_LIMIT: '-1' }, /^PASSWORD_HASH_QUEUE_LIMIT must be an integer from 0 to 100000/],
    [{ DATABASE_OPERATION_TIMEOUT_MS: '-5' }, /^DATABASE_OPERATION_TIMEOUT_MS must be an integer/],
    [{ DOCS: 'yes' }, /^DOCS must be one of true, false, got "yes"$/],
    [{ EMBEDDED_MAX_HEAP_MB: '8' }, /^EMBEDDED_MAX_HEAP_MB must be an integer from 16 to 1048576/],
    [{ EMBEDDED_CHANGE_HISTORY_EVENTS: '0' }, /^EMBEDDED_CHANGE_HISTORY_EVENTS must be an integer from 1 to 10000000/],
    [{ EMBEDDED_CHANGE_HISTORY_EVENTS: '1e3' }, /^EMBEDDED_CHANGE_HISTORY_EVENTS must be an integer/],
    [{ SOCKET_MAX_CALLS_IN_FLIGHT: '0' }, /^SOCKET_MAX_CALLS_IN_FLIGHT must be an integer from 1 to 100000/],
    [{ REMOTE_POOL_SIZE: '0' }, /^REMOTE_POOL_SIZE must be an integer from 1 to 4096/],
    [{ REMOTE_QUEUE_TIMEOUT_MS: '1s' }, /^REMOTE_QUEUE_TIMEOUT_MS must be an integer from 10 to 600000/],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("bounds the embedded server's change-event window only when EMBEDDED_CHANGE_HISTORY_EVENTS is set", () => {
    expect(loadConfig({}).embeddedChangeHistoryEvents).toBeUndefined();
    expect(loadConfig({ EMBEDDED_CHANGE_HISTORY_EVENTS: '5000' }).embeddedChangeHistoryEvents).toBe(5000);
  });

  it('caps the embedded server heap only when EMBEDDED_MAX_HEAP_MB is set', () => {
    expect(loadConfig({}).embeddedMaxHeapMb).toBeUndefined();
    expect(loadConfig({ EMBEDDED_MAX_HEAP_MB: '256' }).embeddedMaxHeapMb).toBe(256);
  });

  it('reads authentication settings', () => {
    expect(loadConfig({ JWT_EXPIRES_IN: '3600', PASSWORD_HASH_COST: '12' }).auth).toMatchObject({
      jwtExpiresIn: '3600s',
      passwordHashCost: 12,
    });
    expect(loadConfig({}).auth).toMatchObject({
      passwordHashCost: 17,
      passwordHashConcurrency: 2,
      passwordHashQueueLimit: 100,
    });
    expect(
      loadConfig({ UV_THREADPOOL_SIZE: '16', PASSWORD_HASH_CONCURRENCY: '8', PASSWORD_HASH_QUEUE_LIMIT: '0' }).auth,
    ).toMatchObject({ passwordHashConcurrency: 8, passwordHashQueueLimit: 0 });
    // A pool of two threads leaves room for one hash at a time by default.
    expect(loadConfig({ UV_THREADPOOL_SIZE: '2' }).auth.passwordHashConcurrency).toBe(1);
    expect(loadConfig({ JWT_EXPIRES_IN: '15m' }).auth.jwtExpiresIn).toBe('15m');
    expect(loadConfig({}).auth).toMatchObject({ jwtAudience: 'hexa-services', jwtIssuer: 'hexa-services' });
    expect(loadConfig({ JWT_AUDIENCE: 'https://api.example.com', JWT_ISSUER: 'example-auth' }).auth).toMatchObject({
      jwtAudience: 'https://api.example.com',
      jwtIssuer: 'example-auth',
    });
  });

  it('reads remote bindings with their tokens, without trailing slashes', () => {
    const config = loadConfig({ MESSAGES_REMOTE_URL: 'http://127.0.0.1:4000/', MESSAGES_REMOTE_TOKEN: 'abc' });
    expect(config.remotes).toEqual({ messages: { url: 'http://127.0.0.1:4000', token: 'abc', readiness: true } });
    expect(
      loadConfig({ MESSAGES_REMOTE_URL: 'http://127.0.0.1:4000', MESSAGES_REMOTE_READINESS: 'false' }).remotes.messages
        .readiness,
    ).toBe(false);
  });

  it(
    'keeps remote bindings without a prototype: a service named like an ' +
      'Object.prototype member finds none unless set',
    () => {
      const unset = loadConfig({});
      for (const name of ['constructor', 'tostring', 'toString', '__proto__', 'hasOwnProperty'])
        expect([name, unset.remotes[name]]).toEqual([name, undefined]);
      const set = loadConfig({
        CONSTRUCTOR_REMOTE_URL: 'http://127.0.0.1:4000',
        __PROTO___REMOTE_URL: 'http://127.0.0.1:4001',
      });
      expect(Object.getPrototypeOf(set.remotes)).toBeNull();
      expect(Object.keys(set.remotes).sort()).toEqual(['__proto__', 'constructor']);
      expect(set.remotes.constructor).toEqual({ url: 'http://127.0.0.1:4000', readiness: true });
      const services = [{ path: 'constructor' }, { path: '__proto__' }] as ServiceDefinition[];
      expect(planStores(unset, services).of('constructor')).toEqual({ store: 'mongo' });
      // Also for a configuration built elsewhere as a plain object.
      expect(planStores({ ...unset, remotes: {} }, services).of('constructor')).toEqual({ store: 'mongo' });
      expect(planStores(set, services).of('constructor')).toEqual({
        store: 'remote',
        remote: { url: 'http://127.0.0.1:4000', readiness: true },
      });
    },
  );

  it('reads revoked service credentials', () => {
    const id = '3575e148-0a4f-4ece-9ef5-a6979b02967f';
    expect(loadConfig({ SERVICE_CREDENTIALS_REVOKED: ` ${id} ,` }).revokedServiceCredentials).toEqual([id]);
  });

  it('serves the API docs outside production unless DOCS says otherwise', () => {
    const production = {
      NODE_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(32),
      MONGODB_URL: 'mongodb://db.internal/app',
    };
    expect(loadConfig({}).docs).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).docs).toBe(true);
    expect(loadConfig(production).docs).toBe(false);
    expect(loadConfig({ ...production, DOCS: 'true' }).docs).toBe(true);
    expect(loadConfig({ DOCS: 'false' }).docs).toBe(false);
  });

  it('serves the demo chat page outside production unless CHAT_PAGE says otherwise', () => {
    const production = {
      NODE_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(32),
      MONGODB_URL: 'mongodb://db.internal/app',
    };
    expect(loadConfig({}).chatPage).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).chatPage).toBe(true);
    expect(loadConfig({ CHAT_PAGE: 'false' }).chatPage).toBe(false);
    expect(loadConfig(production).chatPage).toBe(false);
    expect(loadConfig({ ...production, CHAT_PAGE: 'true' }).chatPage).toBe(true);
    expect(() => loadConfig({ CHAT_PAGE: 'on' })).toThrow(/^CHAT_PAGE must be one of true, false, got "on"$/);
  });

  describe('the database in production: MONGODB_URL, or the embedded server chosen by name', () => {
    const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32) };

    it('refuses to start without MONGODB_URL, in one line naming both ways out', () => {
      expect(() => loadConfig(production)).toThrow(ConfigError);
      expect(() => loadConfig(production)).toThrow(
        /^MONGODB_URL must be set when NODE_ENV=production \(or choose the embedded database with DATABASE=embedded\)$/,
      );
      expect(() => loadConfig({ ...production, DATABASE: 'mongodb' })).toThrow(/^DATABASE=mongodb needs MONGODB_URL$/);
    });

    it('starts on MONGODB_URL, or on the embedded server when DATABASE=embedded', () => {
      expect(loadConfig({ ...production, MONGODB_URL: 'mongodb://db.internal/app' }).mongodbUrl).toBe(
        'mongodb://db.internal/app',
      );
      expect(
        loadConfig({ ...production, MONGODB_URL: 'mongodb://db.internal/app', DATABASE: 'mongodb' }).mongodbUrl,
      ).toBe('mongodb://db.internal/app');
      expect(loadConfig({ ...production, DATABASE: 'embedded' }).mongodbUrl).toBeUndefined();
    });

    it('needs no database choice when nothing is stored in MongoDB (STORE=memory)', () => {
      expect(loadConfig({ ...production, STORE: 'memory' }).store).toBe('memory');
    });

    it('keeps the embedded server as the default outside production, and refuses contradictions everywhere', () => {
      expect(loadConfig({}).mongodbUrl).toBeUndefined();
      expect(loadConfig({ NODE_ENV: 'test', DATABASE: 'embedded' }).mongodbUrl).toBeUndefined();
      expect(() => loadConfig({ DATABASE: 'embedded', MONGODB_URL: 'mongodb://db.internal/app' })).toThrow(
        /^DATABASE=embedded and MONGODB_URL are both set: unset one of them$/,
      );
      expect(() => loadConfig({ DATABASE: 'postgres' })).toThrow(
        /^DATABASE must be one of mongodb, embedded, got "postgres"$/,
      );
    });
  });

  it('accepts a production configuration with a long secret', () => {
    const config = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), STORE: 'memory' });
    expect(config).toMatchObject({ nodeEnv: 'production', store: 'memory' });
  });
});
