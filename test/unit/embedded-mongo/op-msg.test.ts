import { BSON } from 'bson';
import { encodeOpMsgReply, parseOpMsg } from '../../../src/embedded-mongo/wire/op-msg';
import { ProtocolError } from '../../../src/embedded-mongo/wire/protocol-error';

function body(flags: number, sections: Buffer[]): Buffer {
  const flagBytes = Buffer.alloc(4);
  flagBytes.writeUInt32LE(flags, 0);
  return Buffer.concat([flagBytes, ...sections]);
}

const kind0 = (doc: object): Buffer => Buffer.concat([Buffer.from([0]), Buffer.from(BSON.serialize(doc))]);
function kind1(name: string, docs: object[]): Buffer {
  const payload = Buffer.concat([Buffer.from(`${name}\0`), ...docs.map((d) => Buffer.from(BSON.serialize(d)))]);
  const size = Buffer.alloc(4);
  size.writeInt32LE(payload.length + 4, 0);
  return Buffer.concat([Buffer.from([1]), size, payload]);
}

describe('parseOpMsg', () => {
  test('attaches document sequences to the body under their identifier', () => {
    const parsed = parseOpMsg(body(0, [kind0({ insert: 'c', $db: 'd' }), kind1('documents', [{ a: 1 }, { a: 2 }])]));
    expect(parsed.command).toEqual({ insert: 'c', $db: 'd', documents: [{ a: 1 }, { a: 2 }] });
    expect(parsed.moreToCome).toBe(false);
  });

  test('reads moreToCome and skips a checksum trailer', () => {
    const parsed = parseOpMsg(body(3, [kind0({ ping: 1 }), Buffer.from([1, 2, 3, 4])]));
    expect(parsed).toEqual({ command: { ping: 1 }, moreToCome: true });
  });

  test.each([
    ['no body section', body(0, [kind1('documents', [{ a: 1 }])])],
    ['unknown section kind', body(0, [Buffer.from([7])])],
    ['sequence overrunning the message', body(0, [kind0({ a: 1 }), Buffer.from([1, 255, 0, 0, 0])])],
    ['two body sections', body(0, [kind0({ a: 1 }), kind0({ b: 1 })])],
  ])('rejects %s', (_name, bytes) => {
    expect(() => parseOpMsg(bytes)).toThrow(ProtocolError);
  });

  test('encodes a reply that parses back', () => {
    const frame = encodeOpMsgReply(5, 4, { ok: 1 });
    expect(frame.readInt32LE(0)).toBe(frame.length);
    expect(parseOpMsg(frame.subarray(16)).command).toEqual({ ok: 1 });
  });
});
