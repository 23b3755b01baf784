import type { AddressInfo } from 'node:net';
import { composeApplication, listen } from './composition-root';
import { gracefulClose } from './composition/graceful-close';
import { loadConfig } from './composition/load-config';
import { Tokens } from './composition/tokens';

/** How long in-flight requests may take to finish after SIGTERM/SIGINT before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const composed = await composeApplication(config);
  const logger = composed.container.get(Tokens.infrastructure.logger);
  const server = await listen(composed.http, config.host, config.port);
  const httpClose = gracefulClose(server);
  const realtime = composed.realtime.attach(server);
  const { address, port } = server.address() as AddressInfo;
  logger.info({ url: `http://${address}:${port}` }, `listening on http://${address}:${port}`);

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
      .then(() => httpClose.close())
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
