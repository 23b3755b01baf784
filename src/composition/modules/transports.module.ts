import { ContainerModule } from 'inversify';
import { createHttpAdapter } from '../../adapters/http';
import { buildOpenApiDocument } from '../../adapters/http/openapi/build-openapi-document';
import { sessionsService } from '../../application/authentication/sessions/sessions.definition';
import { chatPage } from '../../examples/chat-page';
import type { AppConfig } from '../app-config';
import { readinessCheck } from '../readiness-check';
import { wireRealtime } from '../realtime';
import { Tokens } from '../tokens';

/**
 * The inbound side: the real-time wiring (closed on unbind), the readiness check and the HTTP
 * adapter (with the demo chat page when `CHAT_PAGE` is on), whose OpenAPI document carries `api`'s title and version.
 * Resolve the HTTP adapter once the application is set up: the document describes the services as registered.
 */
export function transportsModule(config: AppConfig, api: { title: string; version: string }): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Tokens.realtime)
      .toResolvedValue(
        (app, logger, definitions, plans, telemetry) =>
          wireRealtime(app, config, logger, definitions, plans, telemetry),
        [
          Tokens.app,
          Tokens.infrastructure.logger,
          Tokens.services.definitions,
          Tokens.services.storePlans,
          Tokens.infrastructure.telemetry,
        ],
      )
      .inSingletonScope()
      .onDeactivation((realtime) => realtime.close());
    // The database is asked for only when the plans opened it: /ready never opens one.
    bind(Tokens.http.readiness)
      .toDynamicValue(async (context) => {
        const database = context.get(Tokens.services.storePlans).usesDatabase
          ? await context.getAsync(Tokens.infrastructure.database)
          : undefined;
        return readinessCheck(database, [...context.get(Tokens.services.remoteBindings).values()]);
      })
      .inSingletonScope();
    bind(Tokens.http.adapter)
      .toResolvedValue(
        (app, logger, definitions, readiness, { tracer, metrics }) => {
          // Built once, here: class-validator-jsonschema and the page's files load only when docs are on.
          // The sessions service comes with authentication, not from the application's list.
          const apiDocs = config.docs
            ? {
                document: buildOpenApiDocument({ app, definitions: [...definitions, sessionsService], ...api }),
                page: true,
              }
            : undefined;
          const http = createHttpAdapter(app, {
            logger,
            trustProxy: config.trustProxy,
            bodyLimit: config.bodyLimitBytes,
            production: config.nodeEnv === 'production',
            readiness,
            cors: config.corsOrigins.length > 0 ? { origins: config.corsOrigins } : false,
            apiDocs,
            tracer,
            metrics,
          });
          if (config.chatPage) http.express.use(chatPage({ logger }));
          return http;
        },
        [
          Tokens.app,
          Tokens.infrastructure.logger,
          Tokens.services.definitions,
          Tokens.http.readiness,
          Tokens.infrastructure.telemetry,
        ],
      )
      .inSingletonScope();
  });
}
