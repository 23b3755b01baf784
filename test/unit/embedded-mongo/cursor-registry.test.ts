import { Long } from 'bson';
import { CursorRegistry } from '../../../src/embedded-mongo/cursor-registry';
import { MAX_BATCH_BYTES, takeBatch } from '../../../src/embedded-mongo/query/take-batch';

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

  test('takeBatch caps by bytes but always returns one document', () => {
    const huge = { s: 'x'.repeat(MAX_BATCH_BYTES / 2) };
    expect(takeBatch([huge, huge, huge], 0, 100)).toHaveLength(1);
    expect(takeBatch([{ s: 'x'.repeat(MAX_BATCH_BYTES + 10) }], 0, 100)).toHaveLength(1);
  });
});
