import { isIP } from 'node:net';
import type { AppConfig } from './app-config';
import { ConfigError } from './config-error';
import { normalizeCredentialId } from './revoked-credentials';
import { readTracingConfig } from './tracing-config';

export { ConfigError };

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): AppConfig {
  const nodeEnv = oneOf(env, 'NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const authSecret = env.AUTH_SECRET || undefined;
  if (nodeEnv === 'production' && (!authSecret || Buffer.byteLength(authSecret) < 32)) {
    throw new ConfigError('AUTH_SECRET must be set to at least 32 bytes when NODE_ENV=production');
  }
  if (authSecret && Buffer.byteLength(authSecret) < 32)
    throw new ConfigError('AUTH_SECRET must be at least 32 bytes long');
  const mongodbUrl = env.MONGODB_URL || undefined;
  if (mongodbUrl && !/^mongodb(\+srv)?:\/\/.+/.test(mongodbUrl))
    throw new ConfigError(`MONGODB_URL must start with mongodb:// or mongodb+srv://`);
  const store = oneOf(env, 'STORE', ['mongo', 'memory'] as const, 'mongo');
  checkDatabaseChoice(env, nodeEnv, store, mongodbUrl);
  const redisUrl = env.REDIS_URL || undefined;
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\/.+/.test(smtpUrl)) throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
  const host = env.HOST || '127.0.0.1';
  const port = integer(env, 'PORT', 3030, 0, 65535);
  const passwordResetUrl =
    env.PASSWORD_RESET_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}/reset-password`;
  if (!/^https?:\/\/[^#\s]+$/.test(passwordResetUrl))
    throw new ConfigError('PASSWORD_RESET_URL must be an http:// or https:// address without a fragment');
  if (redisUrl && !/^rediss?:\/\/.+/.test(redisUrl))
    throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  return {
    nodeEnv,
    host,
    port,
    store,
    mongodbUrl,
    dataDir: env.DATA_DIR || './data',
    embeddedMaxHeapMb: env.EMBEDDED_MAX_HEAP_MB ? integer(env, 'EMBEDDED_MAX_HEAP_MB', 0, 16, 1_048_576) : undefined,
    embeddedChangeHistoryEvents: env.EMBEDDED_CHANGE_HISTORY_EVENTS
      ? integer(env, 'EMBEDDED_CHANGE_HISTORY_EVENTS', 0, 1, 10_000_000)
      : undefined,
    authSecret,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'silent' : 'info'),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    databaseTimeoutMs: integer(env, 'DATABASE_TIMEOUT_MS', 10_000, 100, 600_000),
    databaseOperationTimeoutMs: integer(env, 'DATABASE_OPERATION_TIMEOUT_MS', 3_000, 100, 600_000),
    remotes: readRemotes(env),
    remotePool: {
      connections: integer(env, 'REMOTE_POOL_SIZE', 64, 1, 4096),
      queueTimeoutMs: integer(env, 'REMOTE_QUEUE_TIMEOUT_MS', 5_000, 10, 600_000),
      maxWaiting: integer(env, 'REMOTE_QUEUE_LIMIT', 1_000, 0, 1_000_000),
    },
    socketMaxCallsInFlight: integer(env, 'SOCKET_MAX_CALLS_IN_FLIGHT', 32, 1, 100_000),
    idempotencyTtlMs: integer(env, 'IDEMPOTENCY_TTL_MS', 24 * 3_600_000, 1_000, 30 * 24 * 3_600_000),
    eventsResume: {
      windowMs: integer(env, 'EVENTS_RESUME_WINDOW_MS', 120_000, 0, 24 * 3_600_000),
      maxEventsPerConnection: integer(env, 'EVENTS_RESUME_MAX_EVENTS', 1_000, 1, 1_000_000),
      maxBytes: integer(env, 'EVENTS_RESUME_MAX_BYTES', 64 * 1024 * 1024, 1024, 16 * 1024 * 1024 * 1024),
      maxLogEvents: integer(env, 'EVENTS_RESUME_LOG_MAX_EVENTS', 100_000, 100, 100_000_000),
    },
    revokedServiceCredentials: credentialIds(env, 'SERVICE_CREDENTIALS_REVOKED'),
    docs: flag(env, 'DOCS', nodeEnv !== 'production'),
    chatPage: flag(env, 'CHAT_PAGE', nodeEnv !== 'production'),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    redisUrl,
    auth: {
      jwtExpiresIn: duration(env, 'JWT_EXPIRES_IN', '15m'),
      refreshTokenTtlMs: durationMs(duration(env, 'REFRESH_TOKEN_TTL', '30d')),
      jwtAudience: claimValue(env, 'JWT_AUDIENCE', 'hexa-services'),
      jwtIssuer: claimValue(env, 'JWT_ISSUER', 'hexa-services'),
      passwordHashCost: passwordHashCost(env),
      passwordHashConcurrency: passwordHashConcurrency(env),
      passwordHashQueueLimit: integer(env, 'PASSWORD_HASH_QUEUE_LIMIT', 100, 0, 100_000),
      maxLoginFailuresPerEmail: integer(env, 'LOGIN_MAX_FAILURES_PER_EMAIL', 5, 1, 1_000_000),
      maxLoginFailuresPerClient: integer(env, 'LOGIN_MAX_FAILURES_PER_CLIENT', 20, 1, 1_000_000),
      loginWindowMs: integer(env, 'LOGIN_WINDOW_MS', 15 * 60_000, 1_000, 24 * 3_600_000),
      maxSignUpsPerClient: integer(env, 'SIGNUP_MAX_PER_CLIENT', 10, 1, 1_000_000),
      signUpWindowMs: integer(env, 'SIGNUP_WINDOW_MS', 15 * 60_000, 1_000, 24 * 3_600_000),
    },
    trustProxy: trustProxy(env),
    mail: { smtpUrl, from: env.MAIL_FROM || 'hexa-services <no-reply@localhost>' },
    passwordResetUrl,
    tracing: readTracingConfig(env),
    metrics: flag(env, 'METRICS', nodeEnv !== 'production'),
  };
}

/**
 * `DATABASE`: `mongodb` (the one at `MONGODB_URL`) or `embedded` (the embedded server in `DATA_DIR`).
 * Outside production an unset `MONGODB_URL` means the embedded server; in production it must be
 * chosen by name, so that a forgotten `MONGODB_URL` stops start-up instead of keeping the data on
 * one machine's disk.
 */
function checkDatabaseChoice(
  env: Env,
  nodeEnv: AppConfig['nodeEnv'],
  store: AppConfig['store'],
  mongodbUrl: string | undefined,
): void {
  const chosen = env.DATABASE ? oneOf(env, 'DATABASE', ['mongodb', 'embedded'] as const, 'mongodb') : undefined;
  if (chosen === 'embedded' && mongodbUrl)
    throw new ConfigError('DATABASE=embedded and MONGODB_URL are both set: unset one of them');
  if (chosen === 'mongodb' && !mongodbUrl) throw new ConfigError('DATABASE=mongodb needs MONGODB_URL');
  if (nodeEnv === 'production' && store === 'mongo' && !mongodbUrl && chosen !== 'embedded') {
    throw new ConfigError(
      'MONGODB_URL must be set when NODE_ENV=production (or choose the embedded database with DATABASE=embedded)',
    );
  }
}

const TRUST_PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUST_PROXY`: `false`/`off` (the default), a hop count (`1`: the one proxy in front), or a
 * comma-separated list of addresses, CIDR subnets and presets (loopback, linklocal, uniquelocal).
 * `true` (trust any sender) is refused: a client reaching the server directly could then pick its address.
 */
function trustProxy(env: Env): AppConfig['trustProxy'] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'false' || raw === 'off') return false;
  if (/^\d+$/.test(raw)) return integer(env, 'TRUST_PROXY', 0, 0, 100);
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !TRUST_PROXY_PRESETS.includes(entry) && !isAddressOrSubnet(entry));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be false, a hop count, or addresses, CIDR subnets or ${TRUST_PROXY_PRESETS.join('/')} ` +
        `separated by commas, got "${bad.slice(0, 100)}"`,
    );
  }
  return entries;
}

function isAddressOrSubnet(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

/**
 * log2 of scrypt's N (17: OWASP's minimum, 128 MiB per hash). `BCRYPT_COST` is refused rather than
 * ignored: new hashes are scrypt, and a setting that silently does nothing would mislead.
 */
function passwordHashCost(env: Env): number {
  if (env.BCRYPT_COST !== undefined && env.BCRYPT_COST !== '') {
    throw new ConfigError(
      'BCRYPT_COST is no longer read: passwords are hashed with scrypt; set PASSWORD_HASH_COST (log2 of N, 10 to 20, ' +
        'default 17) instead. Stored bcrypt hashes keep working and are replaced at the next login',
    );
  }
  return integer(env, 'PASSWORD_HASH_COST', 17, 10, 20);
}

/**
 * Hashes running at once. They take threads of libuv's pool (`UV_THREADPOOL_SIZE`, default 4),
 * which file and DNS work need too: at least one must stay free.
 */
function passwordHashConcurrency(env: Env): number {
  const raw = env.UV_THREADPOOL_SIZE;
  const pool = raw !== undefined && /^\d+$/.test(raw) ? Math.min(Math.max(Number(raw), 1), 1024) : 4;
  const concurrency = integer(env, 'PASSWORD_HASH_CONCURRENCY', Math.min(2, Math.max(pool - 1, 1)), 1, 1023);
  if (concurrency >= pool) {
    throw new ConfigError(
      `PASSWORD_HASH_CONCURRENCY must be below UV_THREADPOOL_SIZE (${pool}), got "${concurrency}": raise ` +
        `UV_THREADPOOL_SIZE or lower the concurrency`,
    );
  }
  return concurrency;
}

/** A token lifetime as jsonwebtoken reads it: seconds, or a number with a unit (`15m`, `12h`, `7d`). */
function duration(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}(s|m|h|d)?$/.test(raw))
    throw new ConfigError(`${name} must be a number of seconds or a number with s, m, h or d, got "${raw}"`);
  return /^\d+$/.test(raw) ? `${raw}s` : raw;
}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A `duration` (always with its unit) in milliseconds. */
function durationMs(value: string): number {
  return Number(value.slice(0, -1)) * UNIT_MS[value.slice(-1)];
}

/** A token claim such as the audience: 1 to 200 visible characters, no spaces (a name or a URL). */
function claimValue(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[\x21-\x7e]{1,200}$/.test(raw))
    throw new ConfigError(`${name} must be 1 to 200 visible characters without spaces, got "${raw.slice(0, 200)}"`);
  return raw;
}

/** A comma-separated list of credential ids (UUIDs, as `npm run service-credential` makes them). */
function credentialIds(env: Env, name: string): string[] {
  const ids = (env[name] ?? '').split(',').map(normalizeCredentialId).filter(Boolean);
  const bad = ids.find((id) => !/^[0-9a-f-]{36}$/i.test(id));
  if (bad !== undefined)
    throw new ConfigError(`${name} must list credential ids separated by commas, got "${bad.slice(0, 100)}"`);
  return ids;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  return oneOf(env, name, ['true', 'false'] as const, fallback ? 'true' : 'false') === 'true';
}

function readRemotes(env: Env): AppConfig['remotes'] {
  // No prototype: a service named `constructor` (or `__proto__`) finds only what the environment set.
  const remotes: AppConfig['remotes'] = Object.create(null);
  for (const [key, value] of Object.entries(env)) {
    const match = /^([A-Z0-9_]+)_REMOTE_URL$/.exec(key);
    if (!match || !value) continue;
    // Whether a service has that name is checked against the service definitions at composition.
    const name = match[1].toLowerCase();
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError(`${key} must be an absolute http(s) URL, got "${value}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ConfigError(`${key} must be an http(s) URL, got "${value}"`);
    const readiness = oneOf(env, `${match[1]}_REMOTE_READINESS`, ['true', 'false'] as const, 'true') === 'true';
    remotes[name] = { url: value.replace(/\/+$/, ''), token: env[`${match[1]}_REMOTE_TOKEN`] || undefined, readiness };
  }
  return remotes;
}
