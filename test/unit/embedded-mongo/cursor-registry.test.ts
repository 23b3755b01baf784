import { Long } from 'bson';
import { CursorRegistry } from '../../../src/embedded-mongo/cursor-registry';
import { streamFrom, streamOf } from '../../../src/embedded-mongo/query/result-stream';
import { BatchReader, MAX_BATCH_BYTES } from '../../../src/embedded-mongo/query/take-batch';

describe('CursorRegistry', () => {
  const registry = new CursorRegistry(1000);
  afterAll(() => registry.close());
  const docs = Array.from({ length: 10 }, (_, i) => ({ i }));

  test('pages through results and closes the cursor at the end', () => {
    const first = registry.open('d.c', docs, { batchSize: 4 });
    expect(first.batch).toHaveLength(4);
    expect(first.id.isZero()).toBe(false);
    const second = registry.getMore(first.id, 'd.c', 4);
    expect(second.batch.map((d) => d.i)).toEqual([4, 5, 6, 7]);
    const last = registry.getMore(first.id, 'd.c');
    expect(last.batch).toHaveLength(2);
    expect(last.id.isZero()).toBe(true);
    expect(() => registry.getMore(first.id, 'd.c')).toThrow(/not found/);
  });

  test('a result that fits in one batch opens no cursor; idle cursors are reaped', () => {
    expect(registry.open('d.c', docs).id).toEqual(Long.ZERO);
    const open = registry.open('d.c', docs, { batchSize: 1 });
    registry.reapIdle(Date.now() + 5000);
    expect(() => registry.getMore(open.id, 'd.c')).toThrow(/not found/);
  });

  test('getMore on another namespace is refused', () => {
    const open = registry.open('d.c', docs, { batchSize: 1 });
    expect(() => registry.getMore(open.id, 'd.other')).toThrow(/belongs to/);
  });

  test('batches are capped by bytes but always hold one document; the one that did not fit comes next', () => {
    const huge = { s: 'x'.repeat(MAX_BATCH_BYTES / 2) };
    const reader = new BatchReader(streamOf([huge, { ...huge, n: 2 }, { ...huge, n: 3 }]));
    expect(reader.take(100)).toHaveLength(1);
    expect(reader.take(100).map((doc) => doc.n)).toEqual([2]);
    expect(reader.take(100).map((doc) => doc.n)).toEqual([3]);
    expect(reader.exhausted).toBe(true);
    expect(new BatchReader(streamOf([{ s: 'x'.repeat(MAX_BATCH_BYTES + 10) }])).take(100)).toHaveLength(1);
  });

  test('a cursor over a lazy walk reads only what its batches need, plus one document ahead', () => {
    let produced = 0;
    const walk = (function* () {
      for (let i = 0; i < 1_000_000; i++) {
        produced++;
        yield { i };
      }
    })();
    const first = registry.open('d.lazy', streamFrom(walk), { batchSize: 3 });
    expect(first.batch.map((d) => d.i)).toEqual([0, 1, 2]);
    expect(produced).toBe(4);
    const next = registry.getMore(first.id, 'd.lazy', 2);
    expect(next.batch.map((d) => d.i)).toEqual([3, 4]);
    expect(produced).toBe(6);
    expect(registry.kill(first.id)).toBe(true);
  });

  test('a walk that fails on getMore reports the error and the cursor is gone', () => {
    const walk = (function* () {
      yield { i: 0 };
      yield { i: 1 };
      throw new Error('walk failed');
    })();
    const first = registry.open('d.fail', streamFrom(walk), { batchSize: 1 });
    expect(() => registry.getMore(first.id, 'd.fail')).toThrow('walk failed');
    expect(() => registry.getMore(first.id, 'd.fail')).toThrow(/not found/);
  });
});
