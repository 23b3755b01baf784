import { listenHttp } from './adapters/http';
import { composeApplication } from './composition-root';
import { loadConfig } from './composition/load-config';
import { Tokens } from './composition/tokens';

/** How long in-flight requests may take to finish after SIGTERM/SIGINT before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const composed = await composeApplication(config);
  const logger = composed.container.get(Tokens.infrastructure.logger);
  const http = await listenHttp(composed.http, { host: config.host, port: config.port });
  const realtime = composed.realtime.attach(http.server);
  logger.info({ url: http.url }, `listening on ${http.url}`);
  if (config.docs) logger.info(`API docs on ${http.url}/docs (OpenAPI document: ${http.url}/openapi.json)`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown grace period over; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // Stop accepting, let in-flight requests finish (keep-alive sockets included), then close the stores.
    // Sockets first: an open WebSocket would hold the HTTP server's close until the grace period ends.
    realtime
      .close()
      .then(() => http.close())
      .then(() => composed.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'error while closing');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: Error) => {
  console.error(`start-up failed: ${error.message}`);
  process.exit(1);
});
