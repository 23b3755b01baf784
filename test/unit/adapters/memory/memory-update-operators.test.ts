import { MemoryService } from '../../../../src/adapters/memory';

type AnyRecord = Record<string, any>;

/** `$inc` (and `$set`) in patch data, opt-in through `updateOperators` as in DatabaseService. */
describe('MemoryService update operators', () => {
  const seeded = () =>
    new MemoryService<AnyRecord, AnyRecord>({
      updateOperators: ['$inc', '$set'],
      store: { 0: { id: 0, n: 1, nested: { n: 1 }, name: 'a' } },
    });

  it('treats every $ key as a 400 by default, storing nothing', async () => {
    const service = new MemoryService<AnyRecord, AnyRecord>({ store: { 0: { id: 0, n: 1 } } });
    for (const data of [{ $inc: { n: 1 } }, { $set: { n: 2 } }, { $where: 'x' }]) {
      await expect(service.patch(0, data)).rejects.toMatchObject({ name: 'BadRequest' });
    }
    await expect(service.get(0)).resolves.toEqual({ id: 0, n: 1 });
  });

  it('adds to numbers, creates missing fields and nested paths, and merges plain and $set fields', async () => {
    const service = seeded();
    await expect(
      service.patch(0, { $inc: { n: 2, 'nested.n': -1, fresh: 5, 'deep.er': 1 }, $set: { name: 'b' } }),
    ).resolves.toEqual({
      id: 0,
      n: 3,
      nested: { n: 0 },
      fresh: 5,
      deep: { er: 1 },
      name: 'b',
    });
    // Plain keys win over $set of the same field, whatever their order.
    await expect(service.patch(0, { name: 'plain', $set: { name: 'set' } })).resolves.toMatchObject({ name: 'plain' });
  });

  it('never changes the id, by any operator', async () => {
    const service = seeded();
    await expect(service.patch(0, { $inc: { id: 5 }, $set: { id: 9 } })).resolves.toMatchObject({ id: 0 });
    await expect(service.get(0)).resolves.toMatchObject({ id: 0 });
  });

  it.each([
    ['a non-number amount', { $inc: { n: '1' } }],
    ['an infinite amount', { $inc: { n: Infinity } }],
    ['a non-numeric field', { $inc: { name: 1 } }],
    ['a path below a non-object', { $inc: { 'name.x': 1 } }],
    ['an operator name as field', { $inc: { $n: 1 } }],
    ['an own __proto__ key', JSON.parse('{"$inc": {"__proto__": 1}}')],
    ['__proto__ in a path', { $inc: { 'nested.__proto__': 1 } }],
    ['constructor as a plain key', { constructor: 1 }],
    ['an unlisted operator', { $push: { tags: 'x' } }],
    ['an operator without fields', { $inc: 1 }],
  ])('refuses %s with 400 and changes nothing', async (_label, data) => {
    const service = seeded();
    await expect(service.patch(0, data as never)).rejects.toMatchObject({ name: 'BadRequest' });
    await expect(service.get(0)).resolves.toEqual({ id: 0, n: 1, nested: { n: 1 }, name: 'a' });
  });

  it('counts every one of many concurrent increments', async () => {
    const service = seeded();
    await Promise.all(Array.from({ length: 100 }, () => service.patch(0, { $inc: { n: 1 } })));
    await expect(service.get(0)).resolves.toMatchObject({ n: 101 });
  });

  it('refuses to be configured with operators it cannot apply', () => {
    expect(() => new MemoryService({ updateOperators: ['$inc', '$push'] })).toThrow(/\$push/);
  });
});

describe('MemoryService unique fields', () => {
  it('refuses a second record with the same value on create, update and patch (409 naming the field)', async () => {
    const service = new MemoryService<AnyRecord, AnyRecord>({ unique: ['email'] });
    await service.create({ email: 'a@x' });
    const other = (await service.create({ email: 'b@x' })) as AnyRecord;
    const conflict = { name: 'Conflict', code: 409, data: { fields: ['email'] } };
    await expect(service.create({ email: 'a@x' })).rejects.toMatchObject(conflict);
    await expect(service.update(other.id, { email: 'a@x' })).rejects.toMatchObject(conflict);
    await expect(service.patch(other.id, { email: 'a@x' })).rejects.toMatchObject(conflict);
    // A record keeps its own value, and records without the field are not compared.
    await expect(service.patch(other.id, { email: 'b@x', name: 'B' })).resolves.toMatchObject({
      email: 'b@x',
      name: 'B',
    });
    await service.create([{ name: 'no email' }, { name: 'none either' }], { adapter: { multi: true } });
    await expect(
      service.create([{ email: 'c@x' }, { email: 'c@x' }], { adapter: { multi: true } }),
    ).rejects.toMatchObject(conflict);
    expect(service.store.size).toBe(4);
  });
});
