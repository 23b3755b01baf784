import { ContainerModule } from 'inversify';
import {
  createJwtSettings,
  JsonWebTokenIssuer,
  JwtAuthenticationStrategy,
  LocalAuthenticationStrategy,
  ScryptPasswordHasher,
  type JwtOptions,
} from '../../adapters/passport';
import type { Application } from '../../application/app/application';
import { authenticationHooks } from '../../application/authentication/authentication.hooks';
import { AUTHENTICATION_METHODS, AuthenticationService } from '../../application/authentication/authentication.service';
import type { LoginRateLimitOptions } from '../../application/authentication/login-rate-limiter';
import { REQUEST_RATE_LIMITER, SIGN_UP } from '../../application/authentication/limit-per-client.hook';
import { MemoryRequestRateLimiter } from '../../application/authentication/request-rate-limiter';
import { USER_IDENTITY } from '../../application/services/users/user-identity';
import { sessionsService } from '../../application/authentication/sessions/sessions.definition';
import {
  announceEndedSessions,
  SESSION_REGISTRY,
  SessionRegistry,
} from '../../application/authentication/sessions/session-registry';
import { endSessionsOnAccountChanges } from '../../application/authentication/sessions/account-changes.hook';
import { registerService } from '../../application/services/register-service';
import { passwordResetTokensStore } from '../../application/authentication/password-reset/password-reset-record';
import {
  PASSWORD_RESET_PER_ADDRESS,
  PASSWORD_RESET_PER_CLIENT,
  PASSWORD_RESETS_PATH,
  PasswordResetService,
} from '../../application/authentication/password-reset/password-reset.service';
import { copyWith } from '../../domain/plain-record';
import { createMailer } from '../mailer';
import type { LoginRateLimiterPort } from '../../ports/login-rate-limiter.port';
import type { RequestLimit, RequestRateLimiterPort } from '../../ports/request-rate-limiter.port';
import type { ServicePort } from '../../ports/service.port';
import type { AppConfig } from '../app-config';
import { resolveAuthSecret } from '../auth-secret';
import { createStore } from '../create-store';
import { serviceCredentialChecks } from '../revoked-credentials';
import { Tokens } from '../tokens';

/** Authentication settings beyond the environment; every field has a default. */
export interface AuthenticationOptions {
  /** Merged over the defaults (HS256, `JWT_EXPIRES_IN`, typ 'access', `JWT_AUDIENCE`, `JWT_ISSUER`). */
  jwtOptions?: Partial<JwtOptions>;
  /** PEM keys for RS*, PS* or ES* signing instead of the shared secret (set `jwtOptions.algorithm` to match). */
  keyPair?: { privateKey: string; publicKey: string };
  /** scrypt cost (log2 of N); default `PASSWORD_HASH_COST`. Tests use 10 for speed. */
  passwordHashCost?: number;
  /**
   * Brute-force limits of `POST /authentication`; `false` turns them off (and the sign-up limit unless
   * `signUpRateLimit` is set).
   */
  rateLimit?: Partial<LoginRateLimitOptions> | false;
  /** Strategies `POST /authentication` accepts. Default ['local', 'jwt']. */
  authStrategies?: string[];
  /** A limiter shared between instances. Unset: a Redis one when REDIS_URL is set, else counts in memory. */
  rateLimiter?: LoginRateLimiterPort;
  /**
   * Sign-ups per client address, merged over `SIGNUP_MAX_PER_CLIENT` / `SIGNUP_WINDOW_MS`; `false`
   * turns the limit off. Default: on, unless `rateLimit` is false.
   */
  signUpRateLimit?: Partial<RequestLimit> | false;
  /**
   * Password reset requests per client address (default 10 in 15 minutes) and per e-mail address
   * asked about (default 3 an hour); `false` turns both off. Default: on, unless `rateLimit` is false.
   */
  passwordResetRateLimit?: { perClient?: Partial<RequestLimit>; perAddress?: Partial<RequestLimit> } | false;
  /** A request limiter shared between instances. Unset: a Redis one when REDIS_URL is set, else counts in memory. */
  requestRateLimiter?: RequestRateLimiterPort;
}

/** The request limits in force (sign-up, password reset requests), or undefined when all are off. */
export function requestLimits(
  config: AppConfig,
  options: AuthenticationOptions = {},
): Record<string, RequestLimit> | undefined {
  const limits: Record<string, RequestLimit> = {};
  const signUp = options.signUpRateLimit ?? (options.rateLimit === false ? false : {});
  if (signUp !== false)
    limits[SIGN_UP] = { max: config.auth.maxSignUpsPerClient, windowMs: config.auth.signUpWindowMs, ...signUp };
  const reset = options.passwordResetRateLimit ?? (options.rateLimit === false ? false : {});
  if (reset !== false) {
    limits[PASSWORD_RESET_PER_CLIENT] = { max: 10, windowMs: 15 * 60_000, ...reset.perClient };
    limits[PASSWORD_RESET_PER_ADDRESS] = { max: 3, windowMs: 3_600_000, ...reset.perAddress };
  }
  return Object.keys(limits).length > 0 ? limits : undefined;
}

/** The request limits this server configures; any of them may be turned off on its own. */
const REQUEST_ACTIONS: readonly string[] = [SIGN_UP, PASSWORD_RESET_PER_CLIENT, PASSWORD_RESET_PER_ADDRESS];

/**
 * The limiter, letting through the requests whose limit is turned off (any other action without a limit still throws).
 */
function withLimitsTurnedOff(
  limiter: RequestRateLimiterPort,
  limits: Readonly<Record<string, RequestLimit>>,
): RequestRateLimiterPort {
  return {
    consume: (action, client) =>
      REQUEST_ACTIONS.includes(action) && !Object.hasOwn(limits, action) ? 0 : limiter.consume(action, client),
  };
}

/**
 * Where users are bound to another server, a token's user is loaded there for the token's own
 * subject (`params.user`), so that server reads the account as its owner may; a call for nobody
 * would be anonymous there. Local users are read as before, with no user in the params.
 */
function tokenOwnersThrough(users: () => Pick<ServicePort, 'get'>): () => Pick<ServicePort, 'get'> {
  return () => ({ get: (id, params) => users().get!(id, copyWith(params ?? {}, { user: { _id: id } })) });
}

/**
 * The password hasher, the token issuer and a configurer that registers the authentication
 * service (local + jwt strategies) at `authentication`. Strategies reach the users service
 * through the app at call time, so the order of registration does not matter.
 */
export function authenticationModule(config: AppConfig, options: AuthenticationOptions = {}): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Tokens.auth.jwtSettings)
      .toResolvedValue(async () => {
        const keys = options.keyPair ?? { secret: await resolveAuthSecret(config) };
        const algorithm = options.jwtOptions?.algorithm ?? (options.keyPair ? 'RS256' : undefined);
        return createJwtSettings(keys, {
          expiresIn: config.auth.jwtExpiresIn,
          audience: config.auth.jwtAudience,
          issuer: config.auth.jwtIssuer,
          ...options.jwtOptions,
          algorithm,
        });
      })
      .inSingletonScope();
    const scryptHasher = new ScryptPasswordHasher({
      cost: options.passwordHashCost ?? config.auth.passwordHashCost,
      concurrency: config.auth.passwordHashConcurrency,
      queueLimit: config.auth.passwordHashQueueLimit,
    });
    bind(Tokens.auth.passwordHasher).toConstantValue(scryptHasher);
    bind(Tokens.auth.tokenIssuer)
      .toResolvedValue((settings) => new JsonWebTokenIssuer(settings), [Tokens.auth.jwtSettings])
      .inSingletonScope();
    // Sessions and reset links live in MongoDB (with TTL indexes) where services are stored there, else in memory.
    bind(Tokens.auth.stores)
      .toDynamicValue(async (context) => {
        const plans = context.get(Tokens.services.storePlans);
        const database = plans.usesDatabase ? await context.getAsync(Tokens.infrastructure.database) : undefined;
        const store = database ? 'mongo' : 'memory';
        return {
          sessions: createStore(sessionsService, store, database?.db),
          passwordResetTokens: createStore(passwordResetTokensStore, store, database?.db),
        };
      })
      .inSingletonScope();
    bind(Tokens.auth.configure)
      .toResolvedValue(
        (settings, tokenIssuer, passwordHasher, definitions, logger, plans, rateLimiters, stores, { tracer }) =>
          (app: Application) => {
            const users = () => app.service(USER_IDENTITY.path);
            const usersDefinition = definitions.find((definition) => definition.path === USER_IDENTITY.path);
            const credentialChecks = serviceCredentialChecks(config, logger);
            const usersElsewhere = usersDefinition !== undefined && plans.of(USER_IDENTITY.path).store === 'remote';
            registerService(app, sessionsService, stores.sessions, { passwordHasher, storesLocally: true });
            const sessions = new SessionRegistry({
              sessions: () => app.service(sessionsService.path),
              refreshTokenTtlMs: config.auth.refreshTokenTtlMs,
            });
            app.service(sessionsService.path).hooks({ after: { remove: [announceEndedSessions(sessions)] } });
            app.hooks(endSessionsOnAccountChanges(sessions, USER_IDENTITY));
            app.set(SESSION_REGISTRY, sessions);
            const service = new AuthenticationService({
              refusesLogin: (user) => user[USER_IDENTITY.disabledField] === true,
              strategies: [
                new LocalAuthenticationStrategy({
                  users,
                  passwordHasher,
                  logger,
                  tracer,
                  usernameField: USER_IDENTITY.loginField,
                  passwordField: USER_IDENTITY.passwordField,
                }),
                new JwtAuthenticationStrategy({
                  settings,
                  users: usersElsewhere ? tokenOwnersThrough(users) : users,
                  serviceCredentials: credentialChecks,
                  // Users bound to another server log in there, so their sessions live there: a token is
                  // refused here once its session is known to have ended (a logout here, or the bus).
                  sessions: usersElsewhere ? { isActive: (sessionId) => !sessions.hasEnded(sessionId) } : sessions,
                }),
              ],
              sessions,
              tokenIssuer,
              authStrategies: options.authStrategies ?? ['local', 'jwt'],
              // The login answer carries the user as the users service would answer it.
              hiddenFields: usersDefinition?.hiddenFields ?? [],
              rateLimiter: rateLimiters.login,
              rateLimit:
                options.rateLimit === false
                  ? false
                  : {
                      maxFailuresPerEmail: config.auth.maxLoginFailuresPerEmail,
                      maxFailuresPerClient: config.auth.maxLoginFailuresPerClient,
                      windowMs: config.auth.loginWindowMs,
                      ...options.rateLimit,
                    },
            });
            app.use('authentication', service, { methods: [...AUTHENTICATION_METHODS] });
            const limits = requestLimits(config, options);
            if (limits)
              app.set(
                REQUEST_RATE_LIMITER,
                withLimitsTurnedOff(rateLimiters.requests ?? new MemoryRequestRateLimiter(limits), limits),
              );
            app.service('authentication').hooks(authenticationHooks());
            registerService(app, passwordResetTokensStore, stores.passwordResetTokens, {
              passwordHasher,
              storesLocally: true,
            });
            const mailer = createMailer(config, logger);
            app.use(
              PASSWORD_RESETS_PATH,
              new PasswordResetService({
                tokens: () => app.service(passwordResetTokensStore.path),
                users,
                sessions,
                mailer,
                limiter: () => app.get<RequestRateLimiterPort | undefined>(REQUEST_RATE_LIMITER),
                resetUrl: config.passwordResetUrl,
                identity: USER_IDENTITY,
                logger,
                tracer,
              }),
              { methods: ['create'] },
            );
            app.service(PASSWORD_RESETS_PATH).hooks(authenticationHooks());
            // Legacy bcrypt hashes are verified in worker threads: they end with the app.
            app.hooks({
              teardown: [
                async (_app: Application, next: () => Promise<void>) => {
                  await next();
                  await scryptHasher.close();
                  await mailer.close?.();
                },
              ],
            });
          },
        [
          Tokens.auth.jwtSettings,
          Tokens.auth.tokenIssuer,
          Tokens.auth.passwordHasher,
          Tokens.services.definitions,
          Tokens.infrastructure.logger,
          Tokens.services.storePlans,
          Tokens.auth.rateLimiters,
          Tokens.auth.stores,
          Tokens.infrastructure.telemetry,
        ],
      )
      .inSingletonScope();
  });
}
