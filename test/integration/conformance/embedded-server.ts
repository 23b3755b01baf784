import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/embedded-mongo';

/** Starts the project's embedded server on an ephemeral loopback port; nothing else is ever contacted. */
export async function startLoopbackServer(): Promise<EmbeddedMongo> {
  const server = await startEmbeddedMongo({ host: '127.0.0.1', port: 0 });
  const host = new URL(server.url.replace(/^mongodb:/, 'http:')).hostname;
  if (host !== '127.0.0.1') {
    await server.stop();
    throw new Error(`embedded server listens on ${host}; the conformance run only talks to 127.0.0.1`);
  }
  return server;
}
