import { connect, type Socket } from 'node:net';
import { BSON, type Document } from 'bson';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/embedded-mongo';
import { recordingLogger } from './embedded-mongo-fixture';

const OP_MSG = 2013;
const OP_QUERY = 2004;

function header(length: number, requestId: number, opCode: number): Buffer {
  const buffer = Buffer.alloc(16);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(requestId, 4);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

function opMsg(
  command: Document,
  options: { flags?: number; sequence?: [string, Document[]]; checksum?: boolean } = {},
): Buffer {
  const parts = [Buffer.alloc(4), Buffer.from([0]), Buffer.from(BSON.serialize(command))];
  parts[0].writeUInt32LE(options.flags ?? 0, 0);
  if (options.sequence) {
    const [name, docs] = options.sequence;
    const body = Buffer.concat([Buffer.from(`${name}\0`), ...docs.map((d) => Buffer.from(BSON.serialize(d)))]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(body.length + 4, 0);
    parts.push(Buffer.from([1]), size, body);
  }
  if (options.checksum) parts.push(Buffer.alloc(4));
  const body = Buffer.concat(parts);
  return Buffer.concat([header(16 + body.length, 7, OP_MSG), body]);
}

function opQuery(namespace: string, query: Document): Buffer {
  const body = Buffer.concat([
    Buffer.alloc(4),
    Buffer.from(`${namespace}\0`),
    Buffer.alloc(8),
    Buffer.from(BSON.serialize(query)),
  ]);
  body.writeInt32LE(-1, 4 + namespace.length + 1 + 4);
  return Buffer.concat([header(16 + body.length, 9, OP_QUERY), body]);
}

/** Sends bytes and resolves with the first full reply's body document, or 'closed'. */
function exchange(
  port: number,
  bytes: Buffer,
  waitMs = 1500,
): Promise<{ opCode: number; doc?: Document } | 'closed' | 'silent'> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('silent');
    }, waitMs);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 4 && received.length >= received.readInt32LE(0)) {
        clearTimeout(timer);
        socket.destroy();
        const opCode = received.readInt32LE(12);
        const docStart = opCode === 1 ? 36 : 21;
        resolve({ opCode, doc: BSON.deserialize(received.subarray(docStart)) });
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve('closed');
    });
    socket.on('error', () => undefined);
    socket.write(bytes);
  });
}

describe('embedded mongo: wire protocol', () => {
  let server: EmbeddedMongo;
  let port: number;
  const logger = recordingLogger();
  beforeAll(async () => {
    server = await startEmbeddedMongo({ host: '127.0.0.1', port: 0, logger });
    if (server.port === undefined) throw new Error('a TCP server has a port');
    port = server.port;
  });
  afterAll(() => server.stop());

  test('legacy OP_QUERY handshake is answered with OP_REPLY', async () => {
    const reply = await exchange(port, opQuery('admin.$cmd', { ismaster: 1, helloOk: true }));
    expect(reply).toMatchObject({ opCode: 1, doc: { ok: 1, ismaster: true, helloOk: true, maxWireVersion: 21 } });
  });

  test('OP_MSG with a kind-1 document sequence and a checksum trailer', async () => {
    const command = { insert: 'wire', $db: 'wire_test' };
    const reply = await exchange(
      port,
      opMsg(command, { sequence: ['documents', [{ _id: 1 }, { _id: 2 }]], checksum: true, flags: 1 }),
    );
    expect(reply).toMatchObject({ opCode: OP_MSG, doc: { ok: 1, n: 2 } });
  });

  test('moreToCome gets no reply but the write happens', async () => {
    const silent = await exchange(
      port,
      opMsg({ insert: 'wire', documents: [{ _id: 3 }], $db: 'wire_test' }, { flags: 2 }),
      300,
    );
    expect(silent).toBe('silent');
    const count = await exchange(port, opMsg({ count: 'wire', $db: 'wire_test' }));
    expect(count).toMatchObject({ doc: { n: 3 } });
  });

  test.each([
    ['garbage bytes', Buffer.from('this is not a mongodb message at all')],
    ['length over 48 MB', header(64 * 1024 * 1024, 1, OP_MSG)],
    ['length under the header size', Buffer.from([4, 0, 0, 0, 0, 0, 0, 0])],
    [
      'truncated BSON inside a valid frame',
      Buffer.concat([
        header(16 + 4 + 1 + 8, 1, OP_MSG),
        Buffer.alloc(4),
        Buffer.from([0]),
        Buffer.from([200, 0, 0, 0, 1, 2, 3, 4]),
      ]),
    ],
    ['unknown opcode', header(16, 1, 9999)],
  ])('%s closes only that connection; the server keeps answering', async (_name, bytes) => {
    expect(await exchange(port, bytes)).toBe('closed');
    const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000 });
    try {
      expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
    } finally {
      await client.close();
    }
  });

  test('closed connections are logged with a reason', () => {
    expect(
      logger.lines.some((line) => line.includes('closing connection') && line.includes('invalid message length')),
    ).toBe(true);
  });

  test('a single insertMany message above 16 MiB is accepted (limit is 48 MB)', async () => {
    const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000 });
    try {
      const payload = 'y'.repeat(1024 * 1024);
      const result = await client
        .db('wire_test')
        .collection('large')
        .insertMany(Array.from({ length: 24 }, (_, i) => ({ i, payload })));
      expect(result.insertedCount).toBe(24);
    } finally {
      await client.close();
    }
  });

  test('a command without $db gets an error reply, not a closed socket', async () => {
    const reply = await exchange(port, opMsg({ ping: 1 }));
    expect(reply).toMatchObject({ doc: { ok: 0, code: 9 } });
  });
});
