import { BSON, Binary, Long, Timestamp } from 'bson';
import type { ChangeStreamHub } from '../../../../src/embedded-mongo/change-streams/change-stream-hub';
import { ClusterClock } from '../../../../src/embedded-mongo/change-streams/cluster-clock';
import { clusterTimeElements } from '../../../../src/embedded-mongo/commands/cluster-time';
import { encodeOpMsgReply } from '../../../../src/embedded-mongo/wire/op-msg';
import { encodeOpReply } from '../../../../src/embedded-mongo/wire/op-query';

const hubOf = (clock: ClusterClock): ChangeStreamHub => ({ clock }) as ChangeStreamHub;
/**
 * As a driver reads it (the server's own command decoder leaves gossiped `$clusterTime` out): after
 * the header, the flags and the section kind.
 */
const decoded = (frame: Buffer) => BSON.deserialize(frame.subarray(16 + 5), { promoteLongs: false });
const unsigned = { hash: new Binary(Buffer.alloc(20), 0), keyId: Long.fromNumber(0) };

describe('clusterTimeElements: the fields every replica-set reply ends with', () => {
  test(
    'the reply decodes with $clusterTime (unsigned) and operationTime ' +
      'after its own fields, its frame length right',
    () => {
      const clock = new ClusterClock();
      const now = clock.tick();
      const frame = encodeOpMsgReply(5, 4, { n: 1, ok: 1 }, clusterTimeElements(hubOf(clock)));
      expect(frame.readInt32LE(0)).toBe(frame.length);
      const reply = decoded(frame);
      expect(Object.keys(reply)).toEqual(['n', 'ok', '$clusterTime', 'operationTime']);
      expect(reply).toEqual({
        n: 1,
        ok: 1,
        $clusterTime: { clusterTime: now, signature: unsigned },
        operationTime: now,
      });
    },
  );

  test('a reply keeps the time of its command even when it is encoded after the clock moved', () => {
    const clock = new ClusterClock();
    const first = clock.tick();
    const early = clusterTimeElements(hubOf(clock));
    const second = clock.tick();
    const late = clusterTimeElements(hubOf(clock));
    expect(decoded(encodeOpMsgReply(1, 1, { ok: 1 }, late)).operationTime).toEqual(second);
    expect(decoded(encodeOpMsgReply(2, 2, { ok: 1 }, early)).operationTime).toEqual(first);
    expect(second.greaterThan(first)).toBe(true);
  });

  test('times with every bit of seconds and increment set come back exactly', () => {
    const clock = new ClusterClock();
    const extreme = new Timestamp({ t: 0xfffffffe, i: 0xffffffff });
    clock.advancePast(extreme);
    const reply = decoded(encodeOpMsgReply(1, 1, { ok: 1 }, clusterTimeElements(hubOf(clock))));
    expect(reply.operationTime).toEqual(extreme);
    expect(reply.$clusterTime.clusterTime).toEqual(extreme);
  });

  test('legacy OP_REPLY answers carry the same fields', () => {
    const clock = new ClusterClock();
    const frame = encodeOpReply(1, 1, { ok: 1 }, clusterTimeElements(hubOf(clock)));
    expect(frame.readInt32LE(0)).toBe(frame.length);
    // after OP_REPLY's 20 bytes of flags, cursor and counts
    const reply = BSON.deserialize(frame.subarray(16 + 20), { promoteLongs: false });
    expect(reply).toEqual({
      ok: 1,
      $clusterTime: { clusterTime: clock.current(), signature: unsigned },
      operationTime: clock.current(),
    });
  });
});
