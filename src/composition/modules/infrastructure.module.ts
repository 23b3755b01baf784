import { ContainerModule } from 'inversify';
import pino from 'pino';
import type { AppConfig } from '../app-config';
import { connectDatabase } from '../database-connection';
import { Tokens } from '../tokens';

/** Configuration, logging and (when a service stores in MongoDB) the database connection. */
export function infrastructureModule(config: AppConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Tokens.config).toConstantValue(config);
    bind(Tokens.infrastructure.logger).toConstantValue(pino({ level: config.logLevel }));
    bind(Tokens.infrastructure.database)
      .toResolvedValue((logger) => connectDatabase(config, logger), [Tokens.infrastructure.logger])
      .inSingletonScope();
  });
}
