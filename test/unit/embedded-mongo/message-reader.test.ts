import { MessageReader, frameMessage } from '../../../src/embedded-mongo/wire/message-reader';
import { ProtocolError } from '../../../src/embedded-mongo/wire/protocol-error';

describe('MessageReader', () => {
  const message = (requestId: number, body: string): Buffer => frameMessage(2013, requestId, 0, [Buffer.from(body)]);

  test('frames messages split across and joined within chunks', () => {
    const reader = new MessageReader();
    const bytes = Buffer.concat([message(1, 'first'), message(2, 'second')]);
    expect(reader.push(bytes.subarray(0, 3))).toEqual([]);
    expect(reader.push(bytes.subarray(3, 25)).map((m) => m.requestId)).toEqual([1]);
    const rest = reader.push(bytes.subarray(25));
    expect(rest.map((m) => [m.requestId, m.opCode, m.body.toString()])).toEqual([[2, 2013, 'second']]);
  });

  test('rejects lengths below the header or above the limit', () => {
    expect(() => new MessageReader().push(Buffer.from([3, 0, 0, 0]))).toThrow(ProtocolError);
    expect(() => new MessageReader(100).push(message(1, 'x'.repeat(200)))).toThrow(/invalid message length/);
  });
});
