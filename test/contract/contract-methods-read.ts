import { expectServiceError, MISSING_IDS, sameId, useService } from './contract-fixture';
import type { ContractServiceOptions, ContractTarget } from './contract-types';

const DOUG = { name: 'Doug', age: 32 };
const ALICE = { name: 'Alice', age: 19 };

/** `get` and `find` on a service holding Doug (and Alice, for conflicting-id queries). */
export function describeReadMethods(target: ContractTarget, options: ContractServiceOptions): void {
  const fx = useService(target, options, [DOUG, ALICE]);

  describe('get', () => {
    it('returns the record with its id, name and age', async () => {
      const doug = fx.seeded.Doug;
      const record = await fx.service.get(fx.idOf(doug));
      expect(sameId(fx.idOf(record), fx.idOf(doug))).toBe(true);
      expect(record).toMatchObject(DOUG);
    });

    it('with $select returns the selected fields and always the id', async () => {
      const doug = fx.seeded.Doug;
      const record = await fx.service.get(fx.idOf(doug), { query: { $select: ['name'] } });
      expect(sameId(fx.idOf(record), fx.idOf(doug))).toBe(true);
      expect(record.name).toBe('Doug');
      expect(record.age).toBeUndefined();
    });

    it('with an id whose record does not match params.query is NotFound', async () => {
      await expectServiceError(fx.service.get(fx.idOf(fx.seeded.Doug), { query: { name: 'Tester' } }), 'NotFound', 404);
    });

    it('with a query id that conflicts with the id argument is NotFound', async () => {
      const query = { [fx.idField]: fx.idOf(fx.seeded.Alice) };
      await expectServiceError(fx.service.get(fx.idOf(fx.seeded.Doug), { query }), 'NotFound', 404);
    });

    it.each(MISSING_IDS.map((id) => [typeof id, id]))('with a missing %s id is NotFound', async (_kind, id) => {
      await expectServiceError(fx.service.get(id), 'NotFound', 404);
    });

    it('does not mutate params.query', async () => {
      const query = { $select: ['name'], name: 'Doug' };
      const copy = structuredClone(query);
      await fx.service.get(fx.idOf(fx.seeded.Doug), { query });
      expect(query).toEqual(copy);
    });
  });

  describe('find', () => {
    it('returns an unpaginated array of every record', async () => {
      const records = await fx.service.find();
      expect(Array.isArray(records)).toBe(true);
      expect(records.map((record: any) => record.name).sort()).toEqual(['Alice', 'Doug']);
    });

    it('with a query returns only matching records, ids included', async () => {
      const records = await fx.service.find({ query: { name: 'Doug' } });
      expect(records).toHaveLength(1);
      expect(sameId(fx.idOf(records[0]), fx.idOf(fx.seeded.Doug))).toBe(true);
    });

    it('does not mutate params.query', async () => {
      const query = { name: { $in: ['Doug'] }, $sort: { name: 1 }, $limit: 5 };
      const copy = structuredClone(query);
      await fx.service.find({ query });
      expect(query).toEqual(copy);
    });
  });
}
