import type { TracingSettings } from '../adapters/opentelemetry/tracing-settings';

/** Everything the process reads from its environment, validated once at start. */
export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  store: 'mongo' | 'memory';
  /** Unset: the embedded MongoDB-compatible server is started. */
  mongodbUrl?: string;
  /** Where the embedded server and the development secret live; ':memory:' keeps nothing. */
  dataDir: string;
  /** Caps the embedded server's heap (MB); past it its thread dies and the process exits. Unset: Node's default. */
  embeddedMaxHeapMb?: number;
  /**
   * How many change events the embedded server keeps for change streams to resume from. Unset: its default (100,000).
   */
  embeddedChangeHistoryEvents?: number;
  authSecret?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bodyLimitBytes: number;
  /** How long start-up waits for the database before failing. */
  databaseTimeoutMs: number;
  /** The longest a request waits for an unreachable database before it gets 503. */
  databaseOperationTimeoutMs: number;
  /** How long a write's Idempotency-Key keeps its answer (`IDEMPOTENCY_TTL_MS`, default 24 h). */
  idempotencyTtlMs: number;
  /**
   * What each instance keeps of the events it sent, for sockets that reconnect: the window
   * (`EVENTS_RESUME_WINDOW_MS`, 0: off), events per connection and payload bytes in all.
   */
  eventsResume: { windowMs: number; maxEventsPerConnection: number; maxBytes: number; maxLogEvents: number };
  /**
   * Services bound to another server's REST API instead of the local store, by the name of their
   * variable (`MESSAGES_REMOTE_URL` -> `messages`; see `remoteNameOf`).
   */
  remotes: Record<string, { url: string; token?: string; readiness: boolean }>;
  /**
   * Keep-alive connections each remote binding opens at most; a call that waits longer than
   * `queueTimeoutMs` for one, or finds `maxWaiting` calls waiting already, is a 503.
   */
  remotePool: { connections: number; queueTimeoutMs: number; maxWaiting: number };
  /** Calls one socket connection may have running at once; more are refused with 429. */
  socketMaxCallsInFlight: number;
  /** Ids of service credentials this server no longer accepts (besides `DATA_DIR`'s revocation file). */
  revokedServiceCredentials: string[];
  corsOrigins: string[];
  /** Serve `/openapi.json` and the docs page `/docs` (default: outside production). */
  docs: boolean;
  /** Serve the demo chat page at `/` (default: outside production). */
  chatPage: boolean;
  /** Set: service events and login rate limits are shared with the other instances through this Redis. */
  redisUrl?: string;
  /** Authentication settings from the environment; code may override them per composition. */
  auth: {
    jwtExpiresIn: string;
    refreshTokenTtlMs: number;
    jwtAudience: string;
    jwtIssuer: string;
    passwordHashCost: number;
    passwordHashConcurrency: number;
    passwordHashQueueLimit: number;
    maxLoginFailuresPerEmail: number;
    maxLoginFailuresPerClient: number;
    loginWindowMs: number;
    maxSignUpsPerClient: number;
    signUpWindowMs: number;
  };
  /** Mail (password reset links): over SMTP to `smtpUrl`; without it, written to the log outside production. */
  mail: { smtpUrl?: string; from: string };
  /** The page a password reset link opens (the token follows in the fragment). */
  passwordResetUrl: string;
  /**
   * Proxies trusted for `X-Forwarded-For` (HTTP requests and socket handshakes): a hop count, or
   * addresses, CIDR subnets and proxy-addr presets; `false` trusts none. Unset: none either, except
   * that a request already through an embedding Express app keeps that app's `req.ip`.
   */
  trustProxy?: false | number | string[];
  /**
   * Traces to an OTLP endpoint, from the standard `OTEL_*` variables; unset: tracing is off and nothing of it loads.
   */
  tracing?: TracingSettings;
  /** Serve `GET /metrics` in Prometheus text (`METRICS`, default: outside production). */
  metrics: boolean;
}
