import type { Document } from 'bson';
import { countMatches, findStream, type ExecutionStats } from '../../../src/embedded-mongo/query/find-documents';
import { sortDocuments, topSorted } from '../../../src/embedded-mongo/query/sort-documents';
import { CollectionStore } from '../../../src/embedded-mongo/storage/collection-store';

const SIZE = 10_000;

function collection(): CollectionStore {
  const store = new CollectionStore('d', 'c', {}, () => undefined);
  for (let i = 0; i < SIZE; i++) store.insert({ _id: i, n: (i * 7919) % SIZE, group: i % 10 });
  store.createIndex({ v: 2, key: { n: 1 }, name: 'n_1' });
  return store;
}

const newStats = (): ExecutionStats => ({ keysExamined: 0, docsExamined: 0, nReturned: 0 });

/** The walk is lazy: taking a batch reads that batch, not the collection. */
describe('findStream', () => {
  const store = collection();

  test('a scan reads only as far as the batches taken', () => {
    const stats = newStats();
    const stream = findStream(store, { filter: { group: 3 }, stats });
    expect(stats.docsExamined).toBe(0);
    expect(stream.take(5).map((doc) => doc._id)).toEqual([3, 13, 23, 33, 43]);
    expect(stats.docsExamined).toBe(44);
    expect(stream.take(2).map((doc) => doc._id)).toEqual([53, 63]);
    expect(stats.docsExamined).toBe(64);
  });

  test('a sort served by an index walks the index in order, a few keys per document taken', () => {
    const stats = newStats();
    const stream = findStream(store, { sort: [['n', -1]], stats });
    expect(stream.take(3).map((doc) => doc.n)).toEqual([SIZE - 1, SIZE - 2, SIZE - 3]);
    expect(stats.plan?.stage).toBe('IXSCAN');
    expect(stats.keysExamined).toBe(3);
  });

  test('an index walk suspended between batches resumes after its last document, across inserts and deletes', () => {
    const local = collection();
    const stream = findStream(local, { filter: { n: { $gte: 100, $lt: 120 } }, sort: [['n', 1]] });
    const first = stream.take(5).map((doc) => doc.n);
    expect(first).toEqual([100, 101, 102, 103, 104]);
    const byN = (n: number) => [...local.documents()].find((doc) => doc.n === n)!;
    local.delete(byN(101)); // already returned
    local.delete(byN(106)); // not yet returned
    local.insert({ _id: 'late', n: 110.5, group: 0 });
    local.insert({ _id: 'early', n: 99.5, group: 0 });
    const rest = stream.take(100).map((doc) => doc.n);
    expect(rest).toEqual([105, 107, 108, 109, 110, 110.5, 111, 112, 113, 114, 115, 116, 117, 118, 119]);
  });

  test('skip and limit stop the walk; counting keeps no documents', () => {
    const stats = newStats();
    const stream = findStream(store, { filter: { group: 1 }, skip: 2, limit: 3, stats });
    expect(stream.take(10).map((doc) => doc._id)).toEqual([21, 31, 41]);
    expect(stats.docsExamined).toBe(42);
    expect(countMatches(store, { filter: { group: 1 } })).toBe(SIZE / 10);
  });

  test('an unindexed sort with a limit keeps the same documents, in the same order, as a full sort', () => {
    const limited = findStream(store, { sort: [['group', -1]], skip: 3, limit: 7 }).take(100);
    const full = sortDocuments([...store.documents()], [['group', -1]]).slice(3, 10);
    expect(limited).toEqual(full);
    const docs: Document[] = Array.from({ length: 50 }, (_, i) => ({ i, key: i % 4 }));
    for (const count of [0, 1, 5, 49, 50, 80]) {
      expect(topSorted(docs, count, [['key', 1]])).toEqual(sortDocuments(docs, [['key', 1]]).slice(0, count));
    }
  });
});
