import {
  BSON,
  BSONRegExp,
  Binary,
  Code,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  UUID,
  type Document,
} from 'bson';
import { parseOpMsg } from '../../../src/embedded-mongo/wire/op-msg';
import { withoutGossip } from '../../../src/embedded-mongo/wire/without-gossip';

const gossip = {
  clusterTime: new Timestamp({ t: 1_700_000_000, i: 3 }),
  signature: { hash: new Binary(Buffer.alloc(20), 0), keyId: Long.fromNumber(0) },
};
const bytes = (doc: Document): Buffer => Buffer.from(BSON.serialize(doc));

describe('withoutGossip', () => {
  test('drops the top-level $clusterTime document and keeps every other element, whatever its type', () => {
    const others = {
      find: 'c',
      double: new Double(1.5),
      string: 'é',
      document: { a: 1 },
      array: [1, 'two'],
      binary: new UUID().toBinary(),
      objectId: new ObjectId(),
      boolean: true,
      date: new Date(0),
      null: null,
      code: new Code('x'),
      int32: new Int32(7),
      timestamp: new Timestamp({ t: 1, i: 1 }),
      long: Long.fromNumber(2),
      decimal: Decimal128.fromString('1.10'),
      min: new MinKey(),
      max: new MaxKey(),
    };
    const result = withoutGossip(bytes({ ...others, $clusterTime: gossip, $db: 'd' }));
    expect(result.readInt32LE(0)).toBe(result.length);
    expect(result).toEqual(bytes({ ...others, $db: 'd' }));
  });

  test('keeps a $clusterTime inside a document, and one that is not a document', () => {
    const nested = bytes({ find: 'c', filter: { $clusterTime: { a: 1 } }, $db: 'd' });
    expect(withoutGossip(nested)).toBe(nested);
    const scalar = bytes({ find: 'c', $clusterTime: 5, $db: 'd' });
    expect(withoutGossip(scalar)).toBe(scalar);
  });

  test('leaves bytes it cannot walk to the decoder: a type it does not size, a truncated element', () => {
    const withRegExp = bytes({ find: 'c', pattern: new BSONRegExp('a', 'i'), $clusterTime: gossip });
    expect(withoutGossip(withRegExp)).toBe(withRegExp);
    const overrun = bytes({ find: 'c', $clusterTime: gossip });
    overrun.writeInt32LE(1000, 4 + 1 + 'find'.length + 1); // the string's length now runs past the end
    expect(withoutGossip(overrun)).toBe(overrun);
  });

  test('a command decoded from OP_MSG has no $clusterTime, and its other arguments are intact', () => {
    const flags = Buffer.alloc(4);
    const body = Buffer.concat([
      flags,
      Buffer.from([0]),
      bytes({ insert: 'c', txnNumber: Long.fromNumber(4), $clusterTime: gossip, $db: 'd' }),
    ]);
    expect(parseOpMsg(body).command).toEqual({ insert: 'c', txnNumber: 4, $db: 'd' });
  });
});
