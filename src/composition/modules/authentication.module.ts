import { ContainerModule } from 'inversify';
import {
  BcryptPasswordHasher,
  createJwtSettings,
  JsonWebTokenIssuer,
  JwtAuthenticationStrategy,
  LocalAuthenticationStrategy,
  type JwtOptions,
} from '../../adapters/passport';
import type { Application } from '../../application/app/application';
import { authenticationHooks } from '../../application/authentication/authentication.hooks';
import { AUTHENTICATION_METHODS, AuthenticationService } from '../../application/authentication/authentication.service';
import type { LoginRateLimitOptions } from '../../application/authentication/login-rate-limiter';
import type { LoginRateLimiterPort } from '../../ports/login-rate-limiter.port';
import type { AppConfig } from '../app-config';
import { resolveAuthSecret } from '../auth-secret';
import { revokedCredentials } from '../revoked-credentials';
import { Tokens } from '../tokens';

/** Authentication settings beyond the environment; every field has a default. */
export interface AuthenticationOptions {
  /** Merged over the defaults (HS256, `JWT_EXPIRES_IN`, typ 'access', `JWT_AUDIENCE`, `JWT_ISSUER`). */
  jwtOptions?: Partial<JwtOptions>;
  /** PEM keys for RS*, PS* or ES* signing instead of the shared secret (set `jwtOptions.algorithm` to match). */
  keyPair?: { privateKey: string; publicKey: string };
  /** bcrypt cost. Default 10. */
  bcryptCost?: number;
  /** Brute-force limits of `POST /authentication`; `false` turns them off. */
  rateLimit?: Partial<LoginRateLimitOptions> | false;
  /** Strategies `POST /authentication` accepts. Default ['local', 'jwt']. */
  authStrategies?: string[];
  /** A limiter shared between instances (the composition passes the Redis one when REDIS_URL is set). */
  rateLimiter?: LoginRateLimiterPort;
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
        return createJwtSettings(keys, { expiresIn: config.auth.jwtExpiresIn, audience: config.auth.jwtAudience, issuer: config.auth.jwtIssuer, ...options.jwtOptions, algorithm });
      })
      .inSingletonScope();
    bind(Tokens.auth.passwordHasher).toConstantValue(new BcryptPasswordHasher({ cost: options.bcryptCost ?? config.auth.bcryptCost }));
    bind(Tokens.auth.tokenIssuer)
      .toResolvedValue((settings) => new JsonWebTokenIssuer(settings), [Tokens.auth.jwtSettings])
      .inSingletonScope();
    bind(Tokens.auth.configure)
      .toResolvedValue(
        (settings, tokenIssuer, passwordHasher, definitions) => (app: Application) => {
          const users = () => app.service('users');
          const service = new AuthenticationService({
            strategies: [new LocalAuthenticationStrategy({ users, passwordHasher }), new JwtAuthenticationStrategy({ settings, users, serviceCredentials: revokedCredentials(config) })],
            tokenIssuer,
            authStrategies: options.authStrategies ?? ['local', 'jwt'],
            // The login answer carries the user as the users service would answer it.
            hiddenFields: definitions.find((definition) => definition.path === 'users')?.hiddenFields ?? [],
            rateLimiter: options.rateLimiter,
            rateLimit: options.rateLimit === false ? false : {
              maxFailuresPerEmail: config.auth.maxLoginFailuresPerEmail,
              maxFailuresPerClient: config.auth.maxLoginFailuresPerClient,
              windowMs: config.auth.loginWindowMs,
              ...options.rateLimit,
            },
          });
          app.use('authentication', service, { methods: [...AUTHENTICATION_METHODS] });
          app.service('authentication').hooks(authenticationHooks());
        },
        [Tokens.auth.jwtSettings, Tokens.auth.tokenIssuer, Tokens.auth.passwordHasher, Tokens.services.definitions],
      )
      .inSingletonScope();
  });
}
