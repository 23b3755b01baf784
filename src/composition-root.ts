import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { Container } from 'inversify';
import { answerClientErrors, createHttpAdapter } from './adapters/http';
import type { Application } from './application/app/application';
import type { AppConfig } from './composition/app-config';
import type { AuthenticationOptions } from './composition/modules/authentication.module';
import { Tokens } from './composition/tokens';
import type { Realtime } from './composition/realtime';

export interface ComposedApplication {
  app: Application;
  http: Express;
  container: Container;
  /** The socket transport and channels: `realtime.attach(server)` once the HTTP server listens. */
  realtime: Realtime;
  /** Tears the application down and closes the database (if one was opened). */
  close(): Promise<void>;
}

/** Settings that do not come from the environment (tests and embedding applications). */
export interface CompositionOptions {
  authentication?: AuthenticationOptions;
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
  const { wireRealtime, sharedLoginRateLimiter } = require('./composition/realtime') as typeof import('./composition/realtime');
  const sharedLimiter = sharedLoginRateLimiter(config, options.authentication);
  const authentication = sharedLimiter ? { ...options.authentication, rateLimiter: sharedLimiter.limiter } : options.authentication;
  const container = new Container();
  await container.load(infrastructureModule(config), servicesModule(config), authenticationModule(config, authentication), applicationModule(config));
  const app = await container.getAsync(Tokens.app);
  const logger = container.get(Tokens.infrastructure.logger);
  const realtime = wireRealtime(app, config, logger);
  const usesDatabase = config.store === 'mongo' && Object.keys(config.remotes).length < 2;
  const database = usesDatabase ? await container.getAsync(Tokens.infrastructure.database) : undefined;
  await app.setup();
  const http = createHttpAdapter(app, {
    logger,
    bodyLimit: config.bodyLimitBytes,
    production: config.nodeEnv === 'production',
    readiness: database ? () => database.ping() : async () => true,
    cors: config.corsOrigins.length > 0 ? { origins: config.corsOrigins } : false,
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
      await sharedLimiter?.close();
    },
  };
}

/** Listens and resolves once the port is bound; malformed requests get JSON errors too. */
export function listen(http: Express, host: string, port: number): Promise<Server> {
  const server = createServer(http);
  answerClientErrors(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
