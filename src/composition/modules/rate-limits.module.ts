import { ContainerModule } from 'inversify';
import type { AppConfig } from '../app-config';
import { sharedRateLimiters } from '../shared-rate-limiters';
import { Tokens } from '../tokens';
import type { AuthenticationOptions } from './authentication.module';

/** The login and request limiters, made when authentication is configured; unbinding closes their Redis client. */
export function rateLimitsModule(config: AppConfig, options: AuthenticationOptions = {}): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Tokens.auth.rateLimiters)
      .toResolvedValue(() => sharedRateLimiters(config, options))
      .inSingletonScope()
      .onDeactivation((limiters) => limiters.close());
  });
}
