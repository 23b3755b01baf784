import express, { type Express } from 'express';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createHttpAdapter } from '../../../../src/adapters/http';
import type { Application } from '../../../../src/application/app/application';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `app` through the real HTTP adapter on 127.0.0.1, port 0. `extra` may add routes that
 * answer before the adapter (raw bodies, static files): the adapter answers every path it gets.
 */
export async function startServer(app: Application, extra?: (outer: Express) => void): Promise<RunningServer> {
  const adapter = createHttpAdapter(app);
  let handler: http.RequestListener = adapter;
  if (extra) {
    const outer = express();
    extra(outer);
    outer.use(adapter);
    handler = outer;
  }
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A loopback port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
