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
  authSecret?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bodyLimitBytes: number;
  /** How long start-up waits for the database before failing. */
  databaseTimeoutMs: number;
  /** The longest a request waits for an unreachable database before it gets 503. */
  databaseOperationTimeoutMs: number;
  /** Services bound to another server's REST API instead of the local store, by service name. */
  remotes: Record<string, { url: string; token?: string }>;
  corsOrigins: string[];
  /** Set: service events and login rate limits are shared with the other instances through this Redis. */
  redisUrl?: string;
  /** Authentication settings from the environment; code may override them per composition. */
  auth: { jwtExpiresIn: string; bcryptCost: number; maxLoginFailuresPerEmail: number; maxLoginFailuresPerClient: number; loginWindowMs: number };
}

/** The services this application defines; `<NAME>_REMOTE_URL` may bind any of them remotely. */
export const SERVICE_NAMES = ['users', 'messages'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
