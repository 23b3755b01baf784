import { MemoryService } from '../../../../src/adapters/memory';
import { idsNamedBy, InsertionPositions } from '../../../../src/adapters/memory/id-lookup';

type Item = { id?: number | string; name: string; [key: string]: unknown };

describe('idsNamedBy', () => {
  it('gives the ids of a query that names only ids, by equality or $in', () => {
    expect(idsNamedBy({ id: 3 }, 'id')).toEqual([3]);
    expect(idsNamedBy({ id: 'a' }, 'id')).toEqual(['a']);
    expect(idsNamedBy({ id: { $in: [1, 'b', 2] } }, 'id')).toEqual([1, 'b', 2]);
    expect(idsNamedBy({ _id: { $in: [] } }, '_id')).toEqual([]);
    expect(
      idsNamedBy(
        Object.assign(Object.create(null) as object, {
          id: Object.assign(Object.create(null) as object, { $in: [1] }),
        }),
        'id',
      ),
    ).toEqual([1]);
  });

  it('gives nothing for any other query (matched record by record)', () => {
    for (const query of [
      {},
      { name: 'a' },
      { id: 1, name: 'a' },
      { id: { $in: [1], $nin: [2] } },
      { id: { $ne: 1 } },
      { id: { $in: [1, { $gt: 0 }] } },
      { id: { $in: [Number.NaN] } },
      { id: Number.NaN },
      { id: null },
      { id: [1] },
      { id: new Date(0) },
      { $or: [{ id: 1 }] },
    ]) {
      expect(idsNamedBy(query as Record<string, unknown>, 'id')).toBeUndefined();
    }
  });
});

describe('InsertionPositions', () => {
  it('orders keys as a Map iterates them: first insertion, kept on replace, last after delete and re-add', () => {
    const map = new Map<string, number>();
    const positions = new InsertionPositions();
    const set = (key: string) => {
      map.set(key, 0);
      positions.set(key);
    };
    for (const key of ['a', 'b', 'c', 'd']) set(key);
    set('b');
    map.delete('a');
    positions.delete('a');
    set('a');
    expect(positions.sort(['a', 'd', 'b', 'c'], (key) => key)).toEqual([...map.keys()]);
    expect(positions.size).toBe(map.size);
  });
});

describe('MemoryService: a query naming only ids is answered by lookups, as a scan would answer it', () => {
  /** The same conditions through `$or`, which the lookup path does not take: the scan's answer. */
  const scanned = (query: Record<string, unknown>) => ({ $or: [query] });

  async function seeded(): Promise<MemoryService<Item>> {
    const service = new MemoryService<Item>({ paginate: { default: 10, max: 50 } });
    await service.create(
      Array.from({ length: 8 }, (_, n) => ({ name: `n${n}` })),
      { adapter: { multi: true } },
    );
    await service.create({ id: 'x', name: 'string id' });
    // taken by the number 5's key: refused
    await service.create({ id: '5', name: 'the string five' }).catch(() => undefined);
    await service.remove(2);
    await service.create({ id: 2, name: 'two again' }); // last in the store's order now
    await service.patch(6, { name: 'six patched' }); // keeps its place
    return service;
  }

  it('gives the records of the ids asked, in the store order, each once, matching types exactly', async () => {
    const service = await seeded();
    for (const query of [
      { id: { $in: [7, 2, 0, 'x', 6, 6, 99, '1'] } },
      { id: { $in: [] } },
      { id: 3 },
      { id: '3' },
      { id: 'x' },
      { id: { $in: ['5', 5] } },
    ]) {
      const direct = await service.find({ query, paginate: false });
      expect(direct).toEqual(await service.find({ query: scanned(query), paginate: false }));
    }
    const page = await service.find({ query: { id: { $in: [7, 2, 0, 'x', 6] } } });
    expect((page as { data: Item[] }).data.map((item) => item.id)).toEqual([0, 6, 7, 'x', 2]);
  });

  it('pages, sorts and selects the looked-up records as it does scanned ones', async () => {
    const service = await seeded();
    const query = { id: { $in: [7, 2, 0, 'x', 6, 1] }, $skip: 1, $limit: 3, $select: ['name'] };
    const direct = await service.find({ query });
    expect(direct).toEqual(
      await service.find({ query: { ...scanned({ id: query.id }), $skip: 1, $limit: 3, $select: ['name'] } }),
    );
    expect(direct).toMatchObject({ total: 6, limit: 3, skip: 1 });
    const sorted = await service.find({ query: { id: { $in: [1, 7, 0] }, $sort: { id: -1 } }, paginate: false });
    expect((sorted as Item[]).map((item) => item.id)).toEqual([7, 1, 0]);
  });

  it('patches and removes only the records named, by lookup', async () => {
    const service = await seeded();
    await expect(
      service.patch(null, { tag: true }, { query: { id: { $in: [1, 3, 'nope'] } }, adapter: { multi: true } }),
    ).resolves.toHaveLength(2);
    await expect(service.remove(null, { query: { id: { $in: [3, 'x'] } }, adapter: { multi: true } })).resolves.toEqual(
      [expect.objectContaining({ id: 3, tag: true }), expect.objectContaining({ id: 'x' })],
    );
    expect(await service.find({ query: { tag: true }, paginate: false })).toEqual([expect.objectContaining({ id: 1 })]);
  });

  it('a store given records under keys other than their ids is scanned (and still found)', async () => {
    const service = new MemoryService<Item>({
      store: { first: { id: 1, name: 'keyed apart' }, 2: { id: 2, name: 'keyed by id' } },
    });
    // Object.entries puts the integer-like key '2' first.
    await expect(service.find({ query: { id: { $in: [1, 2] } } })).resolves.toEqual([
      { id: 2, name: 'keyed by id' },
      { id: 1, name: 'keyed apart' },
    ]);
    await expect(service.find({ query: { id: 1 } })).resolves.toEqual([{ id: 1, name: 'keyed apart' }]);
  });
});
