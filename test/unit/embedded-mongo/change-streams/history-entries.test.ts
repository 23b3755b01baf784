import { Double, Timestamp } from 'bson';
import type { ChangeRecord } from '../../../../src/embedded-mongo/change-streams/change-record';
import {
  historyEntry,
  horizonEntry,
  readHistoryEntries,
} from '../../../../src/embedded-mongo/change-streams/history-entries';
import { MAX_OP_INDEX } from '../../../../src/embedded-mongo/change-streams/stream-position';

const at = (i: number, txnOpIndex = 0): ChangeRecord => ({
  clusterTime: new Timestamp({ t: 1_700_000_000, i }),
  txnOpIndex,
  wallTime: new Date(0),
  operationType: 'insert',
  db: 'd',
  coll: 'c',
  documentKey: { _id: i },
  fullDocument: { _id: i },
  bytes: 140,
});

describe('history entries: the change-stream window as the storage engine keeps it', () => {
  test('a record becomes a document without its absent parts (BSON would store them as null)', () => {
    const entry = historyEntry({ ...at(1), lsid: undefined, preImage: undefined });
    expect(Object.keys(entry)).not.toContain('lsid');
    expect(Object.keys(entry)).not.toContain('preImage');
    expect(entry.fullDocument).toEqual({ _id: 1 });
  });

  test(
    'the last horizon wins and records come back in order, each once ' + '(a compaction cut short wrote some twice)',
    () => {
      const first = { clusterTime: new Timestamp({ t: 1_700_000_000, i: 0 }), txnOpIndex: MAX_OP_INDEX };
      const second = { clusterTime: new Timestamp({ t: 1_700_000_000, i: 1 }), txnOpIndex: 0 };
      const entries = [
        horizonEntry(first),
        ...[1, 2, 3].map((i) => historyEntry(at(i))),
        horizonEntry(second),
        ...[2, 3, 4].map((i) => historyEntry(at(i))),
      ];
      const loaded = readHistoryEntries(entries);
      expect(loaded.horizon).toEqual(second);
      expect(loaded.records.map((record) => record.clusterTime.i)).toEqual([1, 2, 3, 4]);
    },
  );

  test(
    "a transaction's records share a time and stay apart by their index; " +
      'an index read back as a Double is a number again',
    () => {
      const entries = [
        historyEntry(at(5, 0)),
        { ...historyEntry(at(5, 1)), txnOpIndex: new Double(1) },
        historyEntry(at(5, 2)),
      ];
      expect(readHistoryEntries(entries).records.map((record) => record.txnOpIndex)).toEqual([0, 1, 2]);
    },
  );

  test('no entries: no horizon, no records (a data folder that never kept a history)', () => {
    expect(readHistoryEntries([])).toEqual({ records: [], horizon: undefined });
  });
});
