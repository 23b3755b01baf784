import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { MemoryService } from '../../../src/adapters/memory';
import { attachSocketTransport, type SocketTransport } from '../../../src/adapters/socketio';
import { createApp, type Application } from '../../../src/application/app/application';
import { channels } from '../../../src/application/channels/channels';
import { pause, RecordingSocket, waitFor } from '../../helpers/socket-clients';

/** A bare app (no authentication): every connection is in `everyone`, which hears `feed` events. */
describe('socket transport limits', () => {
  let app: Application;
  let server: Server;
  let transport: SocketTransport;
  let url: string;
  const warnings: { obj: unknown; msg?: string }[] = [];
  const logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (obj: unknown, msg?: string) => void warnings.push({ obj, msg }),
    error: () => undefined,
  };

  beforeAll(async () => {
    app = createApp();
    app.configure(channels({ logger }));
    app.use('feed', new MemoryService());
    app.on('connection', (connection) => app.channel('everyone').join(connection));
    app.publish(() => app.channel('everyone'));
    await app.setup();
    server = createServer((_req, res) => res.writeHead(404).end());
    transport = attachSocketTransport(app, server, { logger, maxBufferedBytes: 256 * 1024 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await transport?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('a client that stops reading is disconnected with a logged reason; others get every event', async () => {
    const slow = new RecordingSocket(url);
    const fast = new RecordingSocket(url);
    await Promise.all([slow.connected(), fast.connected()]);
    // 16 MB of events: more than the kernel's socket buffers can absorb for the paused reader.
    const engine = (slow.socket.io as unknown as { engine: { transport: { ws: { _socket: { pause(): void } } } } })
      .engine;
    engine.transport.ws._socket.pause();
    const text = 'x'.repeat(16 * 1024);
    const events = 1_000;
    const started = Date.now();
    for (let index = 0; index < events; index++) await app.service('feed').create({ index, text });
    await waitFor(() => fast.named('feed created').length === events, 'the fast client to get every event', 20_000);
    expect(Date.now() - started).toBeLessThan(20_000);
    await waitFor(
      () => warnings.some((warning) => /slow real-time client/.test(warning.msg ?? '')),
      'the slow-consumer log line',
    );
    expect(app.realtime!.connections.size).toBe(1);
    slow.close();
    fast.close();
  }, 60_000);

  it('malformed frames close only their own connection', async () => {
    const bystander = new RecordingSocket(url);
    await bystander.connected();
    const frames = [
      '42not json',
      '42{"a":1}',
      '42[]',
      '9garbage',
      '42[123,"x"]',
      Buffer.from([0xff, 0x00, 0x13, 0x37]),
      '451-["x",{"_placeholder":true,"num":9}]',
    ];
    for (const frame of frames) {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
      const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        ws.once('error', reject);
        ws.on('message', (data) => {
          const text = data.toString();
          if (text.startsWith('0')) ws.send('40');
          else if (text.startsWith('40')) resolve();
        });
      });
      ws.send(frame);
      await Promise.race([closed, pause(1_000)]);
      ws.terminate();
      const [error, page] = await bystander.call('find', 'feed', { $limit: 1 });
      expect(error).toBeNull();
      expect(Array.isArray(page)).toBe(true);
    }
    expect(bystander.socket.connected).toBe(true);
    bystander.close();
  });
});
