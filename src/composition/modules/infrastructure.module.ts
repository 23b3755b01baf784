import { ContainerModule } from 'inversify';
import pino from 'pino';
import type { AppConfig } from '../app-config';
import type { LoggerPort } from '../../ports/logger.port';
import { createTelemetry } from '../telemetry';
import { Tokens } from '../tokens';

/**
 * Tracing and metrics, logging and (when a service stores in MongoDB) the database connection.
 */
export function infrastructureModule(
  config: AppConfig,
  version: string,
  logger?: LoggerPort & { child(bindings: object): LoggerPort },
): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Tokens.infrastructure.telemetry)
      .toResolvedValue(() => createTelemetry(config, version))
      .inSingletonScope()
      .onDeactivation((telemetry) => telemetry.close());
    bind(Tokens.infrastructure.logger)
      .toResolvedValue(() => logger ?? pino({ level: config.logLevel }))
      .inSingletonScope();
    // The driver (and the embedded server) load when a service first needs the database: an
    // application on STORE=memory or on remote services never loads them. Unbinding closes a
    // connection that was opened (Inversify deactivates only resolved singletons: never opens one).
    bind(Tokens.infrastructure.database)
      .toResolvedValue(
        (logger) => {
          const { connectDatabase } = require('../database-connection') as typeof import('../database-connection');
          return connectDatabase(config, logger);
        },
        [Tokens.infrastructure.logger],
      )
      .inSingletonScope()
      .onDeactivation((database) => database.close());
  });
}
