import type { Express } from 'express';
import net, { type AddressInfo } from 'node:net';
import { createHttpAdapter, listenHttp } from '../../../../src/adapters/http';
import type { Application } from '../../../../src/application/app/application';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `app` through the real HTTP adapter on 127.0.0.1, port 0. `extra` may add routes for
 * paths that are not services (raw bodies, static files) on the adapter's Express app.
 */
export async function startServer(app: Application, extra?: (express: Express) => void): Promise<RunningServer> {
  const adapter = createHttpAdapter(app);
  extra?.(adapter.express);
  const { url, port, close } = await listenHttp(adapter);
  return { url, port, close };
}

/** A loopback port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
