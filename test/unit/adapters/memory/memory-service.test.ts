import { MemoryService } from '../../../../src/adapters/memory';
import { createApp } from '../../../../src/application/app/application';

type Person = { id?: number | string; name: string; age?: number; [key: string]: unknown };

describe('MemoryService', () => {
  describe('ids', () => {
    it('counts ids up from 0 in creation order', async () => {
      const service = new MemoryService<Person>();
      const first = await service.create({ name: 'A' });
      const second = await service.create({ name: 'B' });
      expect([(first as Person).id, (second as Person).id]).toEqual([0, 1]);
    });

    it('starts at startId', async () => {
      const service = new MemoryService<Person>({ startId: 100 });
      await expect(service.create([{ name: 'A' }, { name: 'B' }], { adapter: { multi: true } })).resolves.toEqual([
        { id: 100, name: 'A' },
        { id: 101, name: 'B' },
      ]);
    });

    it('keeps an id given in the data and finds it by string or number', async () => {
      const service = new MemoryService<Person>();
      await service.create({ id: 42, name: 'Given' });
      await expect(service.get(42)).resolves.toEqual({ id: 42, name: 'Given' });
      await expect(service.get('42')).resolves.toEqual({ id: 42, name: 'Given' });
    });

    it('keeps the stored id and its type on update and patch, whatever the data says', async () => {
      const service = new MemoryService<Person>();
      await service.create({ name: 'A' });
      await expect(service.update('0', { id: 99, name: 'B' })).resolves.toEqual({ id: 0, name: 'B' });
      await expect(service.patch(0, { id: 98, age: 3 })).resolves.toEqual({ id: 0, name: 'B', age: 3 });
      await expect(service.find()).resolves.toEqual([{ id: 0, name: 'B', age: 3 }]);
    });

    it('refuses ids that are not strings or numbers', async () => {
      const service = new MemoryService<Person>();
      await expect(service.get({ $ne: null } as never)).rejects.toMatchObject({ name: 'BadRequest' });
      await expect(service.remove(Number.NaN)).rejects.toMatchObject({ name: 'BadRequest' });
    });
  });

  describe('the id option', () => {
    it('names the id field (service.id) and generates ids into it', async () => {
      const service = new MemoryService<Person>({ id: 'customid' });
      expect(service.id).toBe('customid');
      const created = await service.create({ name: 'A' });
      expect(created).toEqual({ customid: 0, name: 'A' });
      await expect(service.get(0, { query: { $select: ['name'] } })).resolves.toEqual({ customid: 0, name: 'A' });
    });
  });

  describe('the store option', () => {
    it('starts with the given records, keyed by id, as copies', async () => {
      const store = { '1': { id: 1, name: 'One', tags: ['a'] }, '2': { id: 2, name: 'Two', tags: [] as string[] } };
      const service = new MemoryService<Person>({ store, startId: 3 });
      await service.patch(1, { name: 'Uno' });
      expect(store['1'].name).toBe('One');
      await expect(service.get(1)).resolves.toEqual({ id: 1, name: 'Uno', tags: ['a'] });
      await expect(service.create({ name: 'Three' })).resolves.toMatchObject({ id: 3 });
      expect(service.store.size).toBe(3);
    });
  });

  describe('isolation', () => {
    it('never shares objects with callers', async () => {
      const service = new MemoryService<Person>();
      const data = { name: 'A', nested: { n: 1 } };
      const created = (await service.create(data)) as Person;
      data.nested.n = 2;
      (created.nested as { n: number }).n = 3;
      const found = await service.get(0);
      expect(found.nested).toEqual({ n: 1 });
      (found.nested as { n: number }).n = 4;
      await expect(service.get(0)).resolves.toMatchObject({ nested: { n: 1 } });
    });

    it('keeps Date values as dates', async () => {
      const service = new MemoryService<Person>();
      const when = new Date(0);
      await service.create({ name: 'A', when });
      const found = await service.get(0);
      expect(found.when).toBeInstanceOf(Date);
      expect((found.when as Date).getTime()).toBe(0);
    });
  });

  describe('per-call options', () => {
    it('reads service.options on every call', async () => {
      const service = new MemoryService<Person>();
      await expect(service.remove(null)).rejects.toMatchObject({ name: 'MethodNotAllowed' });
      service.options.multi = ['remove'];
      await expect(service.remove(null)).resolves.toEqual([]);
      service.options.paginate = { default: 1 };
      await expect(service.find()).resolves.toEqual({ total: 0, limit: 1, skip: 0, data: [] });
    });

    it('params.paginate and params.adapter override the options for one call', async () => {
      const service = new MemoryService<Person>({ paginate: { default: 1, max: 2 }, multi: false });
      await service.create({ name: 'A' });
      await service.create({ name: 'B' });
      await expect(service.find({ paginate: false })).resolves.toHaveLength(2);
      await expect(service.find({ adapter: { paginate: { default: 2 } } })).resolves.toMatchObject({ limit: 2 });
      await expect(service.patch(null, { age: 1 }, { adapter: { multi: ['patch'] } })).resolves.toHaveLength(2);
      await expect(service.find()).resolves.toMatchObject({ total: 2, limit: 1 });
    });

    it('filters and operators options allow more of the query language', async () => {
      const service = new MemoryService<Person>({ operators: ['$regex'], filters: { $ignore: () => undefined } });
      await service.create({ name: 'Alice' });
      await service.create({ name: 'Bob' });
      await expect(service.find({ query: { name: { $regex: '^A' }, $ignore: 'x' } })).resolves.toEqual([
        { id: 0, name: 'Alice' },
      ]);
      await expect(new MemoryService().find({ query: { name: { $regex: '^A' } } })).rejects.toMatchObject({
        name: 'BadRequest',
      });
    });
  });

  describe('sorting', () => {
    it('sorts by several fields, missing values first, numbers before strings', async () => {
      const service = new MemoryService<Person>();
      for (const record of [
        { name: 'b', age: 2 },
        { name: 'a', age: 2 },
        { name: 'c' },
        { name: 'd', age: '1' },
        { name: 'e', age: 1 },
      ]) {
        await service.create(record as Person);
      }
      const sorted = (await service.find({ query: { $sort: { age: 1, name: -1 } } })) as Person[];
      expect(sorted.map((record) => record.name)).toEqual(['c', 'e', 'b', 'a', 'd']);
    });

    it('sorts by dotted paths', async () => {
      const service = new MemoryService<Person>();
      await service.create({ name: 'x', meta: { rank: 2 } });
      await service.create({ name: 'y', meta: { rank: 1 } });
      const sorted = (await service.find({ query: { $sort: { 'meta.rank': 1 } } })) as Person[];
      expect(sorted.map((record) => record.name)).toEqual(['y', 'x']);
    });
  });

  describe('hook-less methods', () => {
    it('public methods only call hook-less ones (never another public method)', async () => {
      const service = new MemoryService<Person>({ multi: true });
      await service.create({ name: 'A' });
      const trap = Object.create(service);
      for (const method of ['find', 'get', 'create', 'update', 'patch', 'remove']) {
        trap[method] = () => {
          throw new Error(`public ${method} called internally`);
        };
      }
      const call = (method: string, ...args: unknown[]) => (MemoryService.prototype as any)[method].apply(trap, args);
      await expect(call('find', {})).resolves.toHaveLength(1);
      await expect(call('get', 0, {})).resolves.toMatchObject({ name: 'A' });
      await expect(call('create', { name: 'B' }, {})).resolves.toMatchObject({ id: 1 });
      await expect(call('update', 1, { name: 'C' }, {})).resolves.toMatchObject({ name: 'C' });
      await expect(call('patch', null, { age: 1 }, {})).resolves.toHaveLength(2);
      await expect(call('remove', null, {})).resolves.toHaveLength(2);
    });

    it('_create and friends do not emit events when registered in an app', async () => {
      const app = createApp();
      app.use('people', new MemoryService<Person>());
      const service = app.service('people');
      const created: unknown[] = [];
      service.on('created', (record: unknown) => created.push(record));
      await service._create({ name: 'silent' });
      await service.create({ name: 'loud' });
      expect(created).toEqual([{ id: 1, name: 'loud' }]);
    });
  });
});

describe('MemoryService duplicate ids', () => {
  it('refuses a record whose id exists with 409 Conflict, storing nothing of the batch', async () => {
    const service = new MemoryService({ multi: true });
    await service.create({ id: 'a', name: 'first' });
    await expect(service.create({ id: 'a', name: 'second' })).rejects.toMatchObject({
      name: 'Conflict',
      data: { fields: ['id'] },
    });
    await expect(service.create([{ id: 'b' }, { id: 'b' }])).rejects.toMatchObject({ name: 'Conflict' });
    expect(await service.find()).toEqual([{ id: 'a', name: 'first' }]);
  });
});
