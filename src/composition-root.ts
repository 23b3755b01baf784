import 'reflect-metadata';
import type { Container, ServiceIdentifier } from 'inversify';
import type { HttpAdapter } from './adapters/http';
import type { Application } from './application/app/application';
import type { ServiceDefinition } from './application/services/service-definition';
import type { AppConfig } from './composition/app-config';
import type { AuthenticationOptions } from './composition/modules/authentication.module';
import type { Realtime } from './composition/realtime';
import { Tokens } from './composition/tokens';
import type { LoggerPort } from './ports/logger.port';

export interface ComposedApplication {
  app: Application;
  /** The HTTP adapter: serve it with `listenHttp(composed.http, { host, port })`. */
  http: HttpAdapter;
  container: Container;
  /** The socket transport and channels: `realtime.attach(server)` once the HTTP server listens. */
  realtime: Realtime;
  /**
   * Closes what the composition opened, in `TEARDOWN_ORDER`; what was never opened (the database on `STORE=memory`)
   * stays unopened.
   */
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

/**
 * What `close()` unbinds, in this order; each binding's deactivation closes what it holds: the
 * sockets and the bus, the app's teardown (services, the password hasher's threads), the database,
 * the remote bindings' connections, the Redis client of the shared limiters, then the tracer
 * (its last spans are sent). Inversify
 * deactivates only singletons that were resolved, so closing never opens anything.
 */
const TEARDOWN_ORDER: readonly ServiceIdentifier[] = [
  Tokens.realtime,
  Tokens.app,
  Tokens.infrastructure.database,
  Tokens.services.remoteBindings,
  Tokens.auth.rateLimiters,
  Tokens.infrastructure.telemetry,
];

/** Builds the whole application from a validated configuration: the one place that wires adapters. */
export async function composeApplication(
  config: AppConfig,
  options: CompositionOptions = {},
): Promise<ComposedApplication> {
  // Inversify, the database driver and the skeleton's services (with their class-validator DTOs)
  // load here, with the first composition: importing the package for its adapters alone does not
  // pay for the whole application (about 25 MB of resident memory).
  const { Container } = require('inversify') as typeof import('inversify');
  type InfrastructureModule = typeof import('./composition/modules/infrastructure.module');
  const { infrastructureModule } = require('./composition/modules/infrastructure.module') as InfrastructureModule;
  const { servicesModule } =
    require('./composition/modules/services.module') as typeof import('./composition/modules/services.module');
  const { rateLimitsModule } =
    require('./composition/modules/rate-limits.module') as typeof import('./composition/modules/rate-limits.module');
  type AuthenticationModule = typeof import('./composition/modules/authentication.module');
  const { authenticationModule } = require('./composition/modules/authentication.module') as AuthenticationModule;
  const { applicationModule } =
    require('./composition/modules/application.module') as typeof import('./composition/modules/application.module');
  const { transportsModule } =
    require('./composition/modules/transports.module') as typeof import('./composition/modules/transports.module');
  const definitions =
    options.services ??
    (require('./application/services/service-list') as typeof import('./application/services/service-list')).SERVICES;
  const { name, version } = require('../package.json') as { name: string; version: string };
  const container = new Container();
  container.load(
    infrastructureModule(config, version, options.logger),
    servicesModule(config, definitions),
    rateLimitsModule(config, options.authentication),
    authenticationModule(config, options.authentication),
    applicationModule(),
    transportsModule(config, { title: name, version }),
  );
  try {
    const app = await container.getAsync(Tokens.app);
    // Channels and the bus before setup, which starts the services; the HTTP adapter after it.
    const realtime = container.get(Tokens.realtime);
    await app.setup();
    const http = await container.getAsync(Tokens.http.adapter);
    return {
      app,
      http,
      container,
      realtime,
      close: () => teardown(container, false),
    };
  } catch (error) {
    // What was opened before the failure (the database, Redis, threads) is closed: a test or an
    // embedding application that goes on holds nothing of it.
    await teardown(container, true);
    throw error;
  }
}

/** Unbinds `TEARDOWN_ORDER`; with `keepGoing` (after a failed start) a failing step does not stop the others. */
async function teardown(container: Container, keepGoing: boolean): Promise<void> {
  for (const identifier of TEARDOWN_ORDER) {
    const step = container.unbindAsync(identifier);
    await (keepGoing ? step.catch(() => undefined) : step);
  }
}
