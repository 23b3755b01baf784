import { expectServiceError, MISSING_IDS, sameId, useService, type StoredPerson } from './contract-fixture';
import type { ContractServiceOptions, ContractTarget } from './contract-types';

const DOUG = { name: 'Doug', age: 32 };
const ALICE = { name: 'Alice', age: 19 };

/** `create`, `update`, `patch` and `remove` of single records (multi calls: see contract-multi). */
export function describeWriteMethods(target: ContractTarget, options: ContractServiceOptions): void {
  const fx = useService(target, options, [DOUG, ALICE]);
  const dougId = () => fx.idOf(fx.seeded.Doug);
  const conflictingQuery = () => ({ [fx.idField]: fx.idOf(fx.seeded.Alice) });
  const stored = (): Promise<StoredPerson> => fx.service.get(dougId());

  describe('remove', () => {
    it('returns the removed record, which is then gone', async () => {
      const removed = await fx.service.remove(dougId());
      expect(removed).toMatchObject(DOUG);
      expect(sameId(fx.idOf(removed), dougId())).toBe(true);
      await expectServiceError(fx.service.get(dougId()), 'NotFound', 404);
    });

    it('with $select returns the selected fields and the id', async () => {
      const removed = await fx.service.remove(dougId(), { query: { $select: ['name'] } });
      expect(sameId(fx.idOf(removed), dougId())).toBe(true);
      expect(removed.name).toBe('Doug');
      expect(removed.age).toBeUndefined();
    });

    it('with an id whose record does not match params.query is NotFound and removes nothing', async () => {
      await expectServiceError(fx.service.remove(dougId(), { query: { name: 'Tester' } }), 'NotFound', 404);
      await expect(stored()).resolves.toMatchObject(DOUG);
    });

    it('with a query id that conflicts with the id argument is NotFound', async () => {
      await expectServiceError(fx.service.remove(dougId(), { query: conflictingQuery() }), 'NotFound', 404);
      await expect(stored()).resolves.toMatchObject(DOUG);
    });

    it.each(MISSING_IDS.map((id) => [typeof id, id]))('with a missing %s id is NotFound', async (_kind, id) => {
      await expectServiceError(fx.service.remove(id), 'NotFound', 404);
    });
  });

  describe('update', () => {
    it('replaces the whole record, keeping its id, and does not mutate the input', async () => {
      const data = { name: 'Dougler' };
      const updated = await fx.service.update(dougId(), data);
      expect(data).toEqual({ name: 'Dougler' });
      expect(sameId(fx.idOf(updated), dougId())).toBe(true);
      expect(updated.name).toBe('Dougler');
      expect(updated.age).toBeUndefined();
      const reread = await stored();
      expect(reread.name).toBe('Dougler');
      expect(reread.age).toBeUndefined();
    });

    it('with $select returns the selected fields and the id', async () => {
      const updated = await fx.service.update(dougId(), { name: 'Dougler', age: 10 }, { query: { $select: ['name'] } });
      expect(sameId(fx.idOf(updated), dougId())).toBe(true);
      expect(updated.name).toBe('Dougler');
      expect(updated.age).toBeUndefined();
    });

    it('with an id whose record does not match params.query is NotFound and changes nothing', async () => {
      await expectServiceError(
        fx.service.update(dougId(), { name: 'Dougler' }, { query: { name: 'Tester' } }),
        'NotFound',
        404,
      );
      await expect(stored()).resolves.toMatchObject(DOUG);
    });

    it('with a query id that conflicts with the id argument is NotFound', async () => {
      await expectServiceError(
        fx.service.update(dougId(), { name: 'Dougler' }, { query: conflictingQuery() }),
        'NotFound',
        404,
      );
      await expect(stored()).resolves.toMatchObject(DOUG);
    });

    it.each(MISSING_IDS.map((id) => [typeof id, id]))('with a missing %s id is NotFound', async (_kind, id) => {
      await expectServiceError(fx.service.update(id, { name: 'NotFound' }), 'NotFound', 404);
    });

    it('with a missing id and a query is NotFound', async () => {
      await expectServiceError(
        fx.service.update(MISSING_IDS[0], { name: 'NotFound' }, { query: { name: 'NotDoug' } }),
        'NotFound',
        404,
      );
    });

    it('with a null id (replace many) is a BadRequest', async () => {
      await expectServiceError(fx.service.update(null, { name: 'Everyone' }), 'BadRequest', 400);
      await expect(stored()).resolves.toMatchObject(DOUG);
    });
  });

  describe('patch', () => {
    it('merges the data, keeping other fields, and does not mutate the input', async () => {
      const data = { name: 'PatchDoug' };
      const patched = await fx.service.patch(dougId(), data);
      expect(data).toEqual({ name: 'PatchDoug' });
      expect(sameId(fx.idOf(patched), dougId())).toBe(true);
      expect(patched).toMatchObject({ name: 'PatchDoug', age: 32 });
      await expect(stored()).resolves.toMatchObject({ name: 'PatchDoug', age: 32 });
    });

    it('with $select returns the selected fields and the id', async () => {
      const patched = await fx.service.patch(dougId(), { name: 'PatchDoug' }, { query: { $select: ['name'] } });
      expect(sameId(fx.idOf(patched), dougId())).toBe(true);
      expect(patched.name).toBe('PatchDoug');
      expect(patched.age).toBeUndefined();
    });

    it('with an id whose record does not match params.query is NotFound and changes nothing', async () => {
      await expectServiceError(
        fx.service.patch(dougId(), { name: 'PatchDoug' }, { query: { name: 'Tester' } }),
        'NotFound',
        404,
      );
      await expect(stored()).resolves.toMatchObject(DOUG);
    });

    it('with a query id that conflicts with the id argument is NotFound', async () => {
      await expectServiceError(
        fx.service.patch(dougId(), { name: 'PatchDoug' }, { query: conflictingQuery() }),
        'NotFound',
        404,
      );
      await expect(stored()).resolves.toMatchObject(DOUG);
    });

    it.each(MISSING_IDS.map((id) => [typeof id, id]))('with a missing %s id is NotFound', async (_kind, id) => {
      await expectServiceError(fx.service.patch(id, { name: 'PatchDoug' }), 'NotFound', 404);
    });

    it('with a missing id and a query is NotFound', async () => {
      await expectServiceError(
        fx.service.patch(MISSING_IDS[0], { name: 'PatchDoug' }, { query: { name: 'NotDoug' } }),
        'NotFound',
        404,
      );
    });
  });

  describe('create', () => {
    it('returns the record with a new id and does not mutate the input', async () => {
      const data = { name: 'Bill', age: 40 };
      const created = await fx.service.create(data);
      expect(data).toEqual({ name: 'Bill', age: 40 });
      expect(fx.idOf(created)).toBeDefined();
      expect(fx.idOf(created)).not.toBeNull();
      expect(created).toMatchObject(data);
      await expect(fx.service.get(fx.idOf(created))).resolves.toMatchObject(data);
    });

    it('gives every new record a distinct id', async () => {
      const first = await fx.service.create({ name: 'One', age: 1 });
      const second = await fx.service.create({ name: 'Two', age: 2 });
      expect(String(fx.idOf(first))).not.toBe(String(fx.idOf(second)));
    });

    it('ignores conditions in params.query', async () => {
      const created = await fx.service.create({ name: 'Billy', age: 42 }, { query: { name: 'Dave' } });
      expect(created).toMatchObject({ name: 'Billy', age: 42 });
    });

    it('with $select returns the selected fields and the id', async () => {
      const created = await fx.service.create({ name: 'William', age: 23 }, { query: { $select: ['name'] } });
      expect(fx.idOf(created)).toBeDefined();
      expect(created.name).toBe('William');
      expect(created.age).toBeUndefined();
    });

    it('with an invalid query is a BadRequest and creates nothing', async () => {
      await expectServiceError(
        fx.service.create({ name: 'Ghost', age: 1 }, { query: { $foo: 1 } }),
        'BadRequest',
        400,
        /\$foo/,
      );
      expect(await fx.service.find({ query: { name: 'Ghost' } })).toEqual([]);
    });

    it('with data that is not an object is a BadRequest', async () => {
      await expectServiceError(fx.service.create('text'), 'BadRequest', 400);
    });
  });
}
