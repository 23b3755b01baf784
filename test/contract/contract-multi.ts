import { asArray, expectServiceError, sortedNames, useService, type Person } from './contract-fixture';
import type { ContractServiceOptions, ContractTarget } from './contract-types';

const TEAM: Person[] = [
  { name: 'Dave', age: 10, group: 'team' },
  { name: 'David', age: 10, group: 'team' },
  { name: 'Doug', age: 32, group: 'solo' },
];

function many(count: number): Person[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `Person ${String(index).padStart(2, '0')}`,
    age: 20 + index,
    group: 'crowd',
  }));
}

/** Calls on several records at once: refused unless `multi` allows the method. */
export function describeMulti(target: ContractTarget, base: ContractServiceOptions): void {
  describe('with multi disabled', () => {
    const fx = useService(target, { ...base, multi: false }, TEAM);

    it("create with an array is MethodNotAllowed 'Can not create multiple entries' and creates nothing", async () => {
      await expectServiceError(fx.service.create([]), 'MethodNotAllowed', 405, 'Can not create multiple entries');
      await expectServiceError(
        fx.service.create([{ name: 'X', age: 1 }]),
        'MethodNotAllowed',
        405,
        'Can not create multiple entries',
      );
      expect(await fx.service.find({ query: { name: 'X' } })).toEqual([]);
    });

    it("patch with a null id is MethodNotAllowed 'Can not patch multiple entries' and changes nothing", async () => {
      await expectServiceError(
        fx.service.patch(null, { age: 2 }, { query: { group: 'team' } }),
        'MethodNotAllowed',
        405,
        'Can not patch multiple entries',
      );
      const team = await fx.service.find({ query: { group: 'team' } });
      expect(team.map((person: Person) => person.age)).toEqual([10, 10]);
    });

    it("remove with a null id is MethodNotAllowed 'Can not remove multiple entries' and removes nothing", async () => {
      await expectServiceError(fx.service.remove(null), 'MethodNotAllowed', 405, 'Can not remove multiple entries');
      expect(await fx.service.find()).toHaveLength(3);
    });
  });

  describe("with multi ['create'] only", () => {
    const fx = useService(target, { ...base, multi: ['create'] }, TEAM);

    it('create with an array returns every record with an id', async () => {
      const created = await fx.service.create([
        { name: 'Gerald', age: 18 },
        { name: 'Herald', age: 18 },
      ]);
      expect(sortedNames(created)).toEqual(['Gerald', 'Herald']);
      for (const record of created) expect(fx.idOf(record)).toBeDefined();
      expect(new Set(created.map((record: any) => String(fx.idOf(record)))).size).toBe(2);
    });

    it('create with an empty array returns an empty array', async () => {
      await expect(fx.service.create([])).resolves.toEqual([]);
    });

    it('patch and remove with a null id are still refused', async () => {
      await expectServiceError(
        fx.service.patch(null, { age: 2 }),
        'MethodNotAllowed',
        405,
        'Can not patch multiple entries',
      );
      await expectServiceError(fx.service.remove(null), 'MethodNotAllowed', 405, 'Can not remove multiple entries');
    });
  });

  describe("with multi ['patch', 'remove']", () => {
    const fx = useService(target, { ...base, multi: ['patch', 'remove'] }, TEAM);

    it('patch with a null id patches every record matching the query and returns them', async () => {
      const patched = await fx.service.patch(null, { age: 2 }, { query: { group: 'team' } });
      expect(sortedNames(patched)).toEqual(['Dave', 'David']);
      expect(patched.map((person: Person) => person.age)).toEqual([2, 2]);
      await expect(fx.service.get(fx.idOf(fx.seeded.Doug))).resolves.toMatchObject({ age: 32 });
    });

    it('patch with a null id where the query still matches after the change returns the records', async () => {
      const patched = await fx.service.patch(null, { age: 2 }, { query: { age: { $lt: 20 } } });
      expect(sortedNames(patched)).toEqual(['Dave', 'David']);
      expect(patched.map((person: Person) => person.age)).toEqual([2, 2]);
    });

    it(
      'patch with a null id where the change makes the query stop ' + 'matching still returns the records, changed',
      async () => {
        const patched = await fx.service.patch(null, { age: 11 }, { query: { age: 10 } });
        expect(sortedNames(patched)).toEqual(['Dave', 'David']);
        expect(patched.map((person: Person) => person.age)).toEqual([11, 11]);
        expect(await fx.service.find({ query: { age: 10 } })).toEqual([]);
      },
    );

    it('patch with a null id and $select returns the selected fields and the ids', async () => {
      const patched = await fx.service.patch(null, { age: 3 }, { query: { group: 'team', $select: ['name'] } });
      expect(sortedNames(patched)).toEqual(['Dave', 'David']);
      for (const record of patched) {
        expect(fx.idOf(record)).toBeDefined();
        expect(record.age).toBeUndefined();
      }
    });

    it('remove with a null id removes every record matching the query and returns them', async () => {
      const removed = await fx.service.remove(null, { query: { group: 'team' } });
      expect(sortedNames(removed)).toEqual(['Dave', 'David']);
      expect(sortedNames(await fx.service.find())).toEqual(['Doug']);
    });

    it('remove with a null id and no query removes everything', async () => {
      const removed = await fx.service.remove(null);
      expect(sortedNames(removed)).toEqual(['Dave', 'David', 'Doug']);
      expect(await fx.service.find()).toEqual([]);
    });

    it('create with an array is still refused', async () => {
      await expectServiceError(
        fx.service.create([{ name: 'X', age: 1 }]),
        'MethodNotAllowed',
        405,
        'Can not create multiple entries',
      );
    });
  });

  describe('with multi true and pagination { default: 5, max: 10 }', () => {
    const crowd = many(12);
    const fx = useService(target, { ...base, multi: true, paginate: { default: 5, max: 10 } }, crowd);

    it('patch with a null id ignores pagination and patches all 12 records', async () => {
      const patched = await fx.service.patch(null, { group: 'patched' }, { query: { group: 'crowd' } });
      expect(patched).toHaveLength(12);
      const page = await fx.service.find({ query: { group: 'patched', $limit: 0 } });
      expect(page.total).toBe(12);
    });

    it('remove with a null id ignores pagination and removes all 12 records', async () => {
      const removed = await fx.service.remove(null);
      expect(removed).toHaveLength(12);
      const page = await fx.service.find({ query: { $limit: 0 } });
      expect(page.total).toBe(0);
    });

    it('remove with a null id ignores a $limit in the query', async () => {
      const removed = await fx.service.remove(null, { query: { $limit: 2 } });
      expect(removed).toHaveLength(12);
    });

    it('create with an array of 12 returns all 12 records', async () => {
      const created = await fx.service.create(many(12).map((person) => ({ ...person, group: 'second' })));
      expect(created).toHaveLength(12);
      const page = await fx.service.find({ query: { group: 'second', $limit: 10 } });
      expect(page.total).toBe(12);
      expect(asArray(page)).toHaveLength(10);
    });
  });
}
