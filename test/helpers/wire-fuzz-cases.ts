import { connect } from 'node:net';
import { deserialize, serialize, type Document } from 'bson';
import fc from 'fast-check';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_COMPRESSED = 2012;
const OP_MSG = 2013;

/** Commands worth reaching with odd arguments; `shutdown` is left out on purpose. */
const COMMANDS = [
  'ping',
  'hello',
  'isMaster',
  'buildInfo',
  'find',
  'insert',
  'update',
  'delete',
  'aggregate',
  'getMore',
  'killCursors',
  'count',
  'distinct',
  'findAndModify',
  'createIndexes',
  'dropIndexes',
  'listIndexes',
  'listCollections',
  'listDatabases',
  'create',
  'drop',
  'dropDatabase',
  'endSessions',
  'commitTransaction',
  'abortTransaction',
  'explain',
  'serverStatus',
  'getParameter',
  'saslStart',
  'noSuchCommand',
];

/** A frame: the 16-byte header (length, request id, response to, opcode) and a body. */
export function frame(opCode: number, body: Buffer, declaredLength = 16 + body.length): Buffer {
  const header = Buffer.alloc(16);
  header.writeInt32LE(declaredLength | 0, 0);
  header.writeInt32LE(7, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(opCode | 0, 12);
  return Buffer.concat([header, body]);
}

/** An OP_MSG body: flag bits, then a kind-0 section holding the command. */
export function opMsgBody(command: Buffer, flags = 0): Buffer {
  const flagBytes = Buffer.alloc(4);
  flagBytes.writeUInt32LE(flags >>> 0, 0);
  return Buffer.concat([flagBytes, Buffer.from([0]), command]);
}

const bsonValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom<unknown>(
    new Date(0),
    -0,
    Number.NaN,
    Infinity,
    2 ** 53,
    '',
    '$where',
    { $where: '1' },
    { $function: { body: 'x', args: [], lang: 'js' } },
  ),
);
const command = fc
  .tuple(
    fc.constantFrom(...COMMANDS),
    bsonValue,
    fc.dictionary(fc.string({ maxLength: 12 }), bsonValue, { maxKeys: 5 }),
    fc.option(
      fc.oneof({ arbitrary: fc.constant('fuzz'), weight: 4 }, { arbitrary: fc.string({ maxLength: 12 }), weight: 1 }),
    ),
  )
  .map(([name, argument, extra, db]) => {
    const doc: Document = { [name]: argument, ...extra };
    if (db !== null) doc.$db = db;
    return doc;
  });

/** Serialized BSON, or undefined when the document cannot be serialized at all (skipped). */
function bsonBytes(doc: Document): Buffer | undefined {
  try {
    return Buffer.from(serialize(doc));
  } catch {
    return undefined;
  }
}

const validPing = frame(OP_MSG, opMsgBody(Buffer.from(serialize({ ping: 1, $db: 'admin' }))));

const noise = fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes));
const oddOpcode = fc
  .tuple(
    fc.constantFrom(OP_MSG, OP_QUERY, OP_COMPRESSED, OP_REPLY, 0, -1, 2010, 2011),
    fc.uint8Array({ maxLength: 200 }),
  )
  .map(([opCode, body]) => frame(opCode, Buffer.from(body)));
const lyingLength = fc
  .tuple(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.uint8Array({ maxLength: 64 }))
  .map(([length, body]) => frame(OP_MSG, Buffer.from(body), length));
const garbledPing = fc
  .array(fc.tuple(fc.nat(validPing.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 })
  .map((flips) => {
    const garbled = Buffer.from(validPing);
    for (const [at, value] of flips) garbled[at] = value;
    return garbled;
  });
const flagBits = fc.oneof(
  { arbitrary: fc.constant(0), weight: 6 },
  { arbitrary: fc.constantFrom(1, 2, 3, 0x10000, 0xffffffff), weight: 1 },
);
const oddCommand = fc.tuple(command, flagBits).map(([doc, flags]) => {
  const bytes = bsonBytes(doc);
  return bytes ? frame(OP_MSG, opMsgBody(bytes, flags)) : validPing;
});
const oddSection = fc.tuple(command, fc.uint8Array({ minLength: 1, maxLength: 40 })).map(([doc, section]) => {
  const bytes = bsonBytes(doc) ?? Buffer.alloc(5);
  return frame(OP_MSG, Buffer.concat([opMsgBody(bytes), Buffer.from([1]), Buffer.from(section)]));
});

/**
 * Byte strings a hostile or broken client might send: noise, odd headers, garbled and lying frames,
 * odd commands (most weight).
 */
export const wireInput: fc.Arbitrary<Buffer> = fc.oneof(
  { arbitrary: noise, weight: 1 },
  { arbitrary: oddOpcode, weight: 1 },
  { arbitrary: lyingLength, weight: 1 },
  { arbitrary: garbledPing, weight: 2 },
  { arbitrary: oddCommand, weight: 5 },
  { arbitrary: oddSection, weight: 1 },
);

/** Sends `input`, half-closes, and collects what comes back until the server closes (or `timeoutMs`). */
export function exchange(port: number, input: Buffer, timeoutMs = 3000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.end(input));
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may drop a broken connection while we still write: that is its answer.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}

/** Every reply frame is complete and well formed: OP_MSG or OP_REPLY with a BSON document that has `ok`. */
export function checkReplies(bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) {
    if (bytes.length - offset < 16) throw new Error(`truncated header: ${bytes.subarray(offset).toString('hex')}`);
    const length = bytes.readInt32LE(offset);
    const opCode = bytes.readInt32LE(offset + 12);
    if (length < 16 || offset + length > bytes.length)
      throw new Error(`reply length ${length} does not fit the ${bytes.length - offset} bytes received`);
    const body = bytes.subarray(offset + 16, offset + length);
    let doc: Document;
    if (opCode === OP_MSG) {
      if (body[4] !== 0) throw new Error(`reply section kind ${body[4]}`);
      doc = deserialize(body.subarray(5));
    } else if (opCode === OP_REPLY) {
      doc = deserialize(body.subarray(20));
    } else {
      throw new Error(`reply opcode ${opCode}`);
    }
    if (!('ok' in doc)) throw new Error(`reply without ok: ${JSON.stringify(doc)}`);
    offset += length;
  }
}
