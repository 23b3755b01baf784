import 'reflect-metadata';
import type { Container } from 'inversify';
import { createHttpAdapter, type HttpAdapter } from './adapters/http';
import type { Application } from './application/app/application';
import { buildOpenApiDocument } from './application/openapi/build-openapi-document';
import type { AppConfig } from './composition/app-config';
import type { ServiceDefinition } from './application/services/service-definition';
import type { AuthenticationOptions } from './composition/modules/authentication.module';
import type { DatabaseConnection } from './composition/database-connection';
import type { RemoteBinding } from './composition/remote-binding';
import { assertRemotesNameServices, usesLocalDatabase } from './composition/remote-name';
import { Unavailable } from './domain/errors';
import type { LoggerPort } from './ports/logger.port';
import { Tokens } from './composition/tokens';
import type { Realtime } from './composition/realtime';

export interface ComposedApplication {
  app: Application;
  /** The HTTP adapter: serve it with `listenHttp(composed.http, { host, port })`. */
  http: HttpAdapter;
  container: Container;
  /** The socket transport and channels: `realtime.attach(server)` once the HTTP server listens. */
  realtime: Realtime;
  /** Tears the application down and closes the database (if one was opened). */
  close(): Promise<void>;
}

/** Settings that do not come from the environment (tests and embedding applications). */
export interface CompositionOptions {
  authentication?: AuthenticationOptions;
  /** The services to compose. Default: the application's list (`src/application/services/service-list.ts`). */
  services?: readonly ServiceDefinition[];
  /** The process logger. Default: pino at `LOG_LEVEL`, on stdout. */
  logger?: LoggerPort & { child(bindings: object): LoggerPort };
}

/** Builds the whole application from a validated configuration: the one place that wires adapters. */
export async function composeApplication(config: AppConfig, options: CompositionOptions = {}): Promise<ComposedApplication> {
  // Inversify, the database driver and the skeleton's services (with their class-validator DTOs)
  // load here, with the first composition: importing the package for its adapters alone does not
  // pay for the whole application (about 25 MB of resident memory).
  const { Container } = require('inversify') as typeof import('inversify');
  const { infrastructureModule } = require('./composition/modules/infrastructure.module') as typeof import('./composition/modules/infrastructure.module');
  const { servicesModule } = require('./composition/modules/services.module') as typeof import('./composition/modules/services.module');
  const { authenticationModule } = require('./composition/modules/authentication.module') as typeof import('./composition/modules/authentication.module');
  const { applicationModule } = require('./composition/modules/application.module') as typeof import('./composition/modules/application.module');
  const definitions = options.services ?? (require('./application/services/service-list') as typeof import('./application/services/service-list')).SERVICES;
  assertRemotesNameServices(config, definitions);
  const { wireRealtime, sharedLoginRateLimiter } = require('./composition/realtime') as typeof import('./composition/realtime');
  const sharedLimiter = sharedLoginRateLimiter(config, options.authentication);
  const authentication = sharedLimiter ? sharedLimiter.authentication : options.authentication;
  const container = new Container();
  await container.load(infrastructureModule(config, options.logger), servicesModule(config, definitions), authenticationModule(config, authentication), applicationModule(config));
  const app = await container.getAsync(Tokens.app);
  const logger = container.get(Tokens.infrastructure.logger);
  const realtime = wireRealtime(app, config, logger, definitions);
  // The same rule that decided whether the stores opened it: readiness and close follow it.
  const database = usesLocalDatabase(config, definitions) ? await container.getAsync(Tokens.infrastructure.database) : undefined;
  await app.setup();
  const { name, version } = require('../package.json') as { name: string; version: string };
  // Built once, here: class-validator-jsonschema and the page's files load only when docs are on.
  const apiDocs = config.docs ? { document: buildOpenApiDocument({ app, definitions, title: name, version }), page: true } : undefined;
  const http = createHttpAdapter(app, {
    logger,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    production: config.nodeEnv === 'production',
    readiness: readinessCheck(database, [...container.get(Tokens.services.remoteBindings).values()]),
    cors: config.corsOrigins.length > 0 ? { origins: config.corsOrigins } : false,
    apiDocs,
  });
  return {
    app,
    http,
    container,
    realtime,
    close: async () => {
      await realtime.close();
      await app.teardown();
      await database?.close();
      await Promise.all([...container.get(Tokens.services.remoteBindings).values()].map((remote) => remote.close()));
      await sharedLimiter?.close();
    },
  };
}

/**
 * Ready when the database (if one was opened) answers a ping and every remote service that
 * counts for readiness accepts this server's credential; the first failure names what is down.
 */
function readinessCheck(database: DatabaseConnection | undefined, remotes: readonly RemoteBinding[]): () => Promise<boolean> {
  const counted = remotes.filter((remote) => remote.readiness);
  return async () => {
    const [databaseUp] = await Promise.all([database ? database.ping() : true, ...counted.map((remote) => remote.check())]);
    if (!databaseUp) throw new Unavailable('The database is unavailable');
    return true;
  };
}
