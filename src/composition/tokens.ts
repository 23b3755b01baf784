import type { ServiceIdentifier } from 'inversify';
import type { HttpAdapter } from '../adapters/http';
import type { JwtSettings } from '../adapters/passport';
import type { RemoteBinding } from '../adapters/rest-client/remote-binding';
import type { Application } from '../application/app/application';
import type { ServiceDefinition } from '../application/services/service-definition';
import type { IdempotencyRecords } from '../application/idempotency/idempotency-records';
import type { LoggerPort } from '../ports/logger.port';
import type { LoginRateLimiterPort } from '../ports/login-rate-limiter.port';
import type { PasswordHasherPort } from '../ports/password-hasher.port';
import type { RequestRateLimiterPort } from '../ports/request-rate-limiter.port';
import type { ServiceMethods } from '../ports/service.port';
import type { TokenIssuerPort } from '../ports/token-issuer.port';
import type { DatabaseConnection } from './database-connection';
import type { Realtime } from './realtime';
import type { StorePlans } from './store-plan';
import type { Telemetry } from './telemetry';

const token = <T>(name: string) => Symbol(name) as ServiceIdentifier<T>;

/** Every binding key of the container, one per role, grouped by area. */
export const Tokens = {
  infrastructure: {
    /** The process logger (pino). */
    logger: token<LoggerPort & { child(bindings: object): LoggerPort }>('infrastructure.logger'),
    /**
     * The MongoDB connection (embedded server or MONGODB_URL); opened only when the store plans use it, closed on
     * unbind.
     */
    database: token<DatabaseConnection>('infrastructure.database'),
    /** Tracing (`OTEL_*`) and metrics (`METRICS`), each absent when off; the tracer flushes on unbind. */
    telemetry: token<Telemetry>('infrastructure.telemetry'),
  },
  services: {
    /** Every service's definition, in registration order. */
    definitions: token<readonly ServiceDefinition[]>('services.definitions'),
    /**
     * Where each service is stored (memory, MongoDB or another server): what stores, the database and readiness follow.
     */
    storePlans: token<StorePlans>('services.storePlans'),
    /**
     * The services bound to another server (`<NAME>_REMOTE_URL`), by path: their stores and health; their connections
     * close on unbind.
     */
    remoteBindings: token<ReadonlyMap<string, RemoteBinding>>('services.remoteBindings'),
    /** Makes a definition's store: local collection, memory, or a remote server, by its plan. */
    storeFor: token<(definition: ServiceDefinition) => ServiceMethods>('services.storeFor'),
    /** The idempotency keys of writes, kept in `STORE`; undefined when no service is stored here. */
    idempotencyRecords: token<IdempotencyRecords | undefined>('services.idempotencyRecords'),
  },
  auth: {
    /** Keys and options shared by token signing and verification. */
    jwtSettings: token<JwtSettings>('auth.jwtSettings'),
    tokenIssuer: token<TokenIssuerPort>('auth.tokenIssuer'),
    passwordHasher: token<PasswordHasherPort>('auth.passwordHasher'),
    /**
     * The limiters of failed logins and of per-address requests (sign-up): with `REDIS_URL` shared
     * with the other instances through one Redis client, closed on unbind; otherwise the options'
     * own, or none (each process counts in memory).
     */
    rateLimiters: token<{ login?: LoginRateLimiterPort; requests?: RequestRateLimiterPort; close(): Promise<void> }>(
      'auth.rateLimiters',
    ),
    /** The stores of sessions and of password reset links (memory, or MongoDB where services are stored there). */
    stores: token<{ sessions: ServiceMethods; passwordResetTokens: ServiceMethods }>('auth.stores'),
    /** Registers the authentication service (and its strategies) on an app. */
    configure: token<(app: Application) => void>('auth.configure'),
  },
  /** The application with every service registered and hooked; torn down on unbind. */
  app: token<Application>('app'),
  http: {
    /**
     * What `GET /ready` asks: the database, if the store plans opened one, and the remotes that count for readiness.
     */
    readiness: token<() => Promise<boolean>>('http.readiness'),
    /** The HTTP adapter over the application, with the API docs (`DOCS`) and the demo chat page. */
    adapter: token<HttpAdapter>('http.adapter'),
  },
  /**
   * Channels, the skeleton's channel policy, the bus (`REDIS_URL`) and, once attached, the socket transport; closed on
   * unbind.
   */
  realtime: token<Realtime>('realtime'),
} as const;
