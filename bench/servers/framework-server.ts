/**
 * The framework side of the HTTP benchmarks, written the way an application would be: createApp,
 * a `messages` service (MemoryService, or DatabaseService on the embedded server), an optional
 * JWT-verifying before hook, mounted by createHttpAdapter on a plain Node HTTP server.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';
import { MongoClient } from 'mongodb';
import { createApp, createHttpAdapter, DatabaseService, MemoryService, NotAuthenticated, startEmbeddedMongo, type HookContext } from '../../src';
import { PAGINATE, SEEDED_MESSAGES, reportFailure, seedMessage, serveUntilStopped, settingsFromEnv } from './server-protocol';

async function main(): Promise<void> {
  const settings = settingsFromEnv();
  const app = createApp();
  const stops: Array<() => Promise<unknown>> = [];
  let sampleId = '1';

  if (settings.store === 'mongo') {
    const mongo = await startEmbeddedMongo({ host: '127.0.0.1', port: 0 });
    const client = await MongoClient.connect(mongo.url);
    stops.push(() => mongo.stop(), () => client.close());
    const collection = client.db('bench').collection('messages');
    const inserted = await collection.insertMany(Array.from({ length: SEEDED_MESSAGES }, (_, i) => seedMessage(i)));
    sampleId = String(inserted.insertedIds[1]);
    app.use('messages', new DatabaseService({ Model: collection, paginate: PAGINATE }));
  } else {
    const service = new MemoryService({ paginate: PAGINATE });
    for (let i = 0; i < SEEDED_MESSAGES; i++) await service.create(seedMessage(i));
    app.use('messages', service);
  }

  if (settings.auth) {
    const verifyAccessToken = (context: HookContext): void => {
      const token = context.params.authentication?.accessToken;
      if (!token) throw new NotAuthenticated('No access token');
      try {
        context.params.user = jwt.verify(token, settings.secret, { algorithms: ['HS256'] }) as Record<string, any>;
      } catch {
        throw new NotAuthenticated('Invalid access token');
      }
    };
    app.service('messages').hooks({ before: { all: [verifyAccessToken] } });
  }

  await app.setup();
  const server = createServer(createHttpAdapter(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.unshift(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  serveUntilStopped({ type: 'ready', port, sampleId }, async () => {
    server.closeAllConnections();
    for (const stop of stops) await stop();
  });
}

main().catch(reportFailure);
