import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { composeApplication, type ComposedApplication } from '../../../src/composition-root';
import { loadConfig } from '../../../src/composition/load-config';
import { Tokens } from '../../../src/composition/tokens';

const ENV = { NODE_ENV: 'test', AUTH_SECRET: 'lifecycle-secret-that-is-long-enough-0000', PASSWORD_HASH_COST: '10' };

/** A composition whose log lines are kept, to see what it opened. */
async function compose(env: Record<string, string>): Promise<{ composed: ComposedApplication; messages: string[] }> {
  const messages: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      messages.push(JSON.parse(String(chunk)).msg);
      done();
    },
  });
  const composed = await composeApplication(loadConfig({ ...ENV, ...env }), { logger: pino({ level: 'info' }, sink) });
  return { composed, messages };
}

describe('close() releases, in order, what the composition opened, and opens nothing', () => {
  it('STORE=memory: neither /ready nor close() opens the database', async () => {
    const { composed, messages } = await compose({ STORE: 'memory' });
    expect((await request(composed.http).get('/ready')).status).toBe(200);
    await composed.close();
    expect(messages).not.toContain('database connected');
    expect(composed.container.isBound(Tokens.infrastructure.database)).toBe(false);
  });

  describe('on the embedded database, with messages bound to another server', () => {
    let remote: ComposedApplication;
    let remoteServer: Server;

    beforeAll(async () => {
      remote = await composeApplication(loadConfig({ ...ENV, STORE: 'memory', LOG_LEVEL: 'silent' }));
      remoteServer = createServer(remote.http);
      await new Promise<void>((resolve) => remoteServer.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => remoteServer.close(resolve));
      await remote.close();
    });

    it(
      'closes the sockets, tears the app down, then closes the ' + 'database, the remote connections and the limiters',
      async () => {
        const remoteUrl = `http://127.0.0.1:${(remoteServer.address() as AddressInfo).port}`;
        const { composed, messages } = await compose({
          STORE: 'mongo',
          DATA_DIR: ':memory:',
          MESSAGES_REMOTE_URL: remoteUrl,
        });
        expect(messages).toContain('database connected');
        // Already resolved by the composition: getting them again opens nothing new.
        const database = await composed.container.getAsync(Tokens.infrastructure.database);
        const messagesRemote = composed.container.get(Tokens.services.remoteBindings).get('messages')!;
        const rateLimiters = composed.container.get(Tokens.auth.rateLimiters);
        const socketPath = database.client.options.hosts[0].socketPath!;
        expect(existsSync(socketPath)).toBe(true);
        const closes = {
          realtime: jest.spyOn(composed.realtime, 'close'),
          app: jest.spyOn(composed.app, 'teardown'),
          database: jest.spyOn(database, 'close'),
          remote: jest.spyOn(messagesRemote, 'close'),
          rateLimiters: jest.spyOn(rateLimiters, 'close'),
        };

        await composed.close();

        for (const spy of Object.values(closes)) expect(spy).toHaveBeenCalledTimes(1);
        const order = Object.entries(closes)
          .sort(([, a], [, b]) => a.mock.invocationCallOrder[0] - b.mock.invocationCallOrder[0])
          .map(([name]) => name);
        expect(order).toEqual(['realtime', 'app', 'database', 'remote', 'rateLimiters']);
        // The driver is disconnected and the embedded server stopped (its socket removed).
        expect(await database.ping()).toBe(false);
        expect(existsSync(socketPath)).toBe(false);
        // The remote binding's pool is closed: a call no longer reaches the other server.
        await expect(messagesRemote.store.find!({})).rejects.toMatchObject({ code: 503 });
      },
      60_000,
    );
  });
});
