import { SERVICE_NAMES, type AppConfig } from './app-config';

/** A bad configuration value: the message is one line naming the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): AppConfig {
  const nodeEnv = oneOf(env, 'NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const authSecret = env.AUTH_SECRET || undefined;
  if (nodeEnv === 'production' && (!authSecret || Buffer.byteLength(authSecret) < 32)) {
    throw new ConfigError('AUTH_SECRET must be set to at least 32 bytes when NODE_ENV=production');
  }
  if (authSecret && Buffer.byteLength(authSecret) < 32) throw new ConfigError('AUTH_SECRET must be at least 32 bytes long');
  const mongodbUrl = env.MONGODB_URL || undefined;
  if (mongodbUrl && !/^mongodb(\+srv)?:\/\/.+/.test(mongodbUrl)) throw new ConfigError(`MONGODB_URL must start with mongodb:// or mongodb+srv://`);
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\/.+/.test(redisUrl)) throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  return {
    nodeEnv,
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 3030, 0, 65535),
    store: oneOf(env, 'STORE', ['mongo', 'memory'] as const, 'mongo'),
    mongodbUrl,
    dataDir: env.DATA_DIR || './data',
    authSecret,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'silent' : 'info'),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    databaseTimeoutMs: integer(env, 'DATABASE_TIMEOUT_MS', 10_000, 100, 600_000),
    databaseOperationTimeoutMs: integer(env, 'DATABASE_OPERATION_TIMEOUT_MS', 3_000, 100, 600_000),
    remotes: readRemotes(env),
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean),
    redisUrl,
    auth: {
      jwtExpiresIn: duration(env, 'JWT_EXPIRES_IN', '1d'),
      bcryptCost: integer(env, 'BCRYPT_COST', 10, 4, 15),
      maxLoginFailuresPerEmail: integer(env, 'LOGIN_MAX_FAILURES_PER_EMAIL', 5, 1, 1_000_000),
      maxLoginFailuresPerClient: integer(env, 'LOGIN_MAX_FAILURES_PER_CLIENT', 20, 1, 1_000_000),
      loginWindowMs: integer(env, 'LOGIN_WINDOW_MS', 15 * 60_000, 1_000, 24 * 3_600_000),
    },
  };
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

/** A token lifetime as jsonwebtoken reads it: seconds, or a number with a unit (`15m`, `12h`, `7d`). */
function duration(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}(s|m|h|d)?$/.test(raw)) throw new ConfigError(`${name} must be a number of seconds or a number with s, m, h or d, got "${raw}"`);
  return /^\d+$/.test(raw) ? `${raw}s` : raw;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function readRemotes(env: Env): AppConfig['remotes'] {
  const remotes: AppConfig['remotes'] = {};
  for (const [key, value] of Object.entries(env)) {
    const match = /^([A-Z0-9_]+)_REMOTE_URL$/.exec(key);
    if (!match || !value) continue;
    const name = match[1].toLowerCase();
    if (!(SERVICE_NAMES as readonly string[]).includes(name)) throw new ConfigError(`${key} names no service (known: ${SERVICE_NAMES.join(', ')})`);
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError(`${key} must be an absolute http(s) URL, got "${value}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${key} must be an http(s) URL, got "${value}"`);
    remotes[name] = { url: value.replace(/\/+$/, ''), token: env[`${match[1]}_REMOTE_TOKEN`] || undefined };
  }
  return remotes;
}
