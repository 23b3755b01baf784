import { Timestamp } from 'bson';
import { ChangeHistory } from '../../../../src/embedded-mongo/change-streams/change-history';
import type { ChangeRecord } from '../../../../src/embedded-mongo/change-streams/change-record';
import { decodeResumeToken, encodeResumeToken } from '../../../../src/embedded-mongo/change-streams/resume-token';

function record(i: number, bytes = 100): ChangeRecord {
  return {
    clusterTime: new Timestamp({ t: 1000, i }),
    txnOpIndex: 0,
    wallTime: new Date(),
    operationType: 'insert',
    db: 'd',
    coll: 'c',
    bytes,
  };
}
const start = { clusterTime: new Timestamp({ t: 1000, i: 0 }), txnOpIndex: 0 };

describe('ChangeHistory (the bounded window change streams read, like a capped oplog)', () => {
  it(
    'keeps at most maxEvents records; reading from before the evicted ' +
      'ones fails with ChangeStreamHistoryLost (286)',
    () => {
      const history = new ChangeHistory({ maxEvents: 3 }, start);
      history.append([1, 2, 3, 4, 5].map((i) => record(i)));
      expect(history.count).toBe(3);
      expect(history.readAfter(record(2), 10).map((kept) => kept.clusterTime.i)).toEqual([3, 4, 5]);
      expect(() => history.readAfter(record(1), 10)).toThrow(
        expect.objectContaining({ code: 286, codeName: 'ChangeStreamHistoryLost' }),
      );
    },
  );

  it('keeps at most maxBytes, but always the newest record', () => {
    const history = new ChangeHistory({ maxBytes: 250 }, start);
    history.append([record(1), record(2), record(3)]);
    expect(history.count).toBe(2);
    history.append([record(4, 1000)]);
    expect(history.count).toBe(1);
    expect(history.bytes).toBe(1000);
  });

  it('finds a record by position and wakes a waiting reader on append', async () => {
    const history = new ChangeHistory({}, start);
    const woken = history.waitForChange(5000);
    history.append([record(1)]);
    await woken;
    expect(history.at(record(1))?.clusterTime.i).toBe(1);
    expect(history.at(record(2))).toBeUndefined();
  });
});

describe('resume tokens', () => {
  it('round-trip as { _data: hex } and sort as their positions', () => {
    const token = encodeResumeToken({ clusterTime: new Timestamp({ t: 1700000000, i: 7 }), txnOpIndex: 2 }, 'event');
    expect(token._data).toMatch(/^82[0-9a-f]+$/);
    const point = decodeResumeToken(token);
    expect(point.kind).toBe('event');
    expect([point.position.clusterTime.t, point.position.clusterTime.i, point.position.txnOpIndex]).toEqual([
      1700000000, 7, 2,
    ]);
    const later = encodeResumeToken({ clusterTime: new Timestamp({ t: 1700000000, i: 8 }), txnOpIndex: 0 }, 'event');
    expect(later._data > token._data).toBe(true);
  });

  it('a token this server did not issue fails with InvalidResumeToken (260)', () => {
    expect(() => decodeResumeToken({ _data: 'zz' })).toThrow(expect.objectContaining({ code: 260 }));
  });
});
