/** The Fastify 5 baselines' server process: the app of `fastify-app.ts` on a port, for the harness. */
import type { AddressInfo } from 'node:net';
import { createFastifyApp } from './fastify-app';
import { memoryMessageStore, mongoMessageStore } from './fastify-message-stores';
import { reportFailure, serveUntilStopped, settingsFromEnv } from './server-protocol';

async function main(): Promise<void> {
  const settings = settingsFromEnv();
  const store = settings.store === 'mongo' ? await mongoMessageStore() : memoryMessageStore();
  const app = await createFastifyApp(settings, store);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  serveUntilStopped({ type: 'ready', port, sampleId: store.sampleId }, async () => {
    app.server.closeAllConnections();
    await app.close();
    await store.close();
  });
}

main().catch(reportFailure);
