/**
 * The bare socket.io baseline of the real-time benchmarks: the same frames as the Feathers
 * protocol (`get` and `create` with the path, arguments and an ack), answered from a Map, and
 * every created record sent to all sockets with `io.emit` (one encoding per event).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { reportFailure, seedMessage, SEEDED_MESSAGES, serveUntilStopped } from './server-protocol';

type Ack = (error: unknown, result?: unknown) => void;

async function main(): Promise<void> {
  const records = new Map<string, Record<string, unknown>>();
  let nextId = 0;
  const store = (data: Record<string, unknown>) => {
    const record = { ...data, id: nextId++ };
    records.set(String(record.id), record);
    return record;
  };
  for (let i = 0; i < SEEDED_MESSAGES; i++) store(seedMessage(i));
  const server = createServer((_req, res) => res.writeHead(404).end());
  const io = new Server(server, { serveClient: false });
  io.on('connection', (socket) => {
    socket.on('get', (_path: string, id: unknown, _query: unknown, ack: Ack) => {
      const record = records.get(String(id));
      ack(record ? null : { name: 'NotFound', code: 404 }, record);
    });
    socket.on('create', (_path: string, data: Record<string, unknown>, _query: unknown, ack: Ack) => {
      const record = store(data);
      io.emit('messages created', record);
      ack(null, record);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serveUntilStopped({ type: 'ready', port: (server.address() as AddressInfo).port, sampleId: '1' }, async () => {
    io.disconnectSockets(true);
    io.engine.close();
    server.close();
  });
}

main().catch(reportFailure);
