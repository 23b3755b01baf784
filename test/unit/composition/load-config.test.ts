import { ConfigError, loadConfig } from '../../../src/composition/load-config';

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ nodeEnv: 'development', host: '127.0.0.1', port: 3030, store: 'mongo', dataDir: './data', remotes: {} });
    expect(config.mongodbUrl).toBeUndefined();
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
    [{ FOO_REMOTE_URL: 'http://127.0.0.1:1' }, /^FOO_REMOTE_URL names no service/],
    [{ MESSAGES_REMOTE_URL: 'not a url' }, /^MESSAGES_REMOTE_URL must be an absolute http\(s\) URL/],
    [{ MESSAGES_REMOTE_URL: 'ftp://127.0.0.1' }, /^MESSAGES_REMOTE_URL must be an http\(s\) URL/],
    [{ JWT_EXPIRES_IN: 'forever' }, /^JWT_EXPIRES_IN must be a number of seconds/],
    [{ BCRYPT_COST: '3' }, /^BCRYPT_COST must be an integer from 4 to 15/],
    [{ DATABASE_OPERATION_TIMEOUT_MS: '-5' }, /^DATABASE_OPERATION_TIMEOUT_MS must be an integer/],
    [{ EMBEDDED_MAX_HEAP_MB: '8' }, /^EMBEDDED_MAX_HEAP_MB must be an integer from 16 to 1048576/],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('caps the embedded server heap only when EMBEDDED_MAX_HEAP_MB is set', () => {
    expect(loadConfig({}).embeddedMaxHeapMb).toBeUndefined();
    expect(loadConfig({ EMBEDDED_MAX_HEAP_MB: '256' }).embeddedMaxHeapMb).toBe(256);
  });

  it('reads authentication settings', () => {
    expect(loadConfig({ JWT_EXPIRES_IN: '3600', BCRYPT_COST: '12' }).auth).toMatchObject({ jwtExpiresIn: '3600s', bcryptCost: 12 });
    expect(loadConfig({ JWT_EXPIRES_IN: '15m' }).auth.jwtExpiresIn).toBe('15m');
  });

  it('reads remote bindings with their tokens, without trailing slashes', () => {
    const config = loadConfig({ MESSAGES_REMOTE_URL: 'http://127.0.0.1:4000/', MESSAGES_REMOTE_TOKEN: 'abc' });
    expect(config.remotes).toEqual({ messages: { url: 'http://127.0.0.1:4000', token: 'abc' } });
  });

  it('accepts a production configuration with a long secret', () => {
    const config = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), STORE: 'memory' });
    expect(config).toMatchObject({ nodeEnv: 'production', store: 'memory' });
  });
});
