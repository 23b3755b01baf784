import { expectServiceError, sameId, useService, type StoredPerson } from './contract-fixture';
import type { ContractServiceOptions, ContractTarget } from './contract-types';

const DOUG = { name: 'Doug', age: 32, nickname: 'D' };
const CONCURRENT_PATCHES = 30;
const CONCURRENT_UPDATES = 10;

/**
 * `update` with `keepOnReplace`: the stored values of the kept fields stay (in the replacing
 * write itself), everything else is replaced; a concurrent patch of a kept field is never undone.
 */
export function describeKeepOnReplace(target: ContractTarget, base: ContractServiceOptions): void {
  describe('update with keepOnReplace', () => {
    const fx = useService(target, { ...base, keepOnReplace: ['age', 'group'], updateOperators: ['$inc'] }, [DOUG]);
    const dougId = () => fx.idOf(fx.seeded.Doug);
    const stored = (): Promise<StoredPerson> => fx.service.get(dougId());

    it(
      'keeps the stored kept fields over the data, takes the data for a ' +
        'kept field the record lacks, and drops the rest',
      async () => {
        const updated = await fx.service.update(dougId(), { name: 'Dougler', age: 99, group: 'new' });
        expect(sameId(fx.idOf(updated), dougId())).toBe(true);
        expect(updated).toMatchObject({ name: 'Dougler', age: 32, group: 'new' });
        expect(updated.nickname).toBeUndefined();
        const reread = await stored();
        expect(reread).toMatchObject({ name: 'Dougler', age: 32, group: 'new' });
        // A database keeps its own `_id` besides a custom id field.
        const fields = Object.keys(reread).filter((key) => key !== '_id' || fx.idField === '_id');
        expect(fields.sort()).toEqual(['age', 'group', 'name', fx.idField].sort());
      },
    );

    it('with $select returns the selected fields and the id', async () => {
      const updated = await fx.service.update(dougId(), { name: 'Dougler' }, { query: { $select: ['age'] } });
      expect(sameId(fx.idOf(updated), dougId())).toBe(true);
      expect(updated.age).toBe(32);
      expect(updated.name).toBeUndefined();
      await expect(stored()).resolves.toMatchObject({ name: 'Dougler', age: 32 });
    });

    it('with a record that does not match params.query is NotFound and changes nothing', async () => {
      await expectServiceError(
        fx.service.update(dougId(), { name: 'Dougler' }, { query: { name: 'Tester' } }),
        'NotFound',
        404,
      );
      await expect(stored()).resolves.toMatchObject(DOUG);
    });

    it('stores values that look like field paths or expressions as they were sent', async () => {
      const data = { name: '$age', tags: ['$$ROOT', '$name'], nested: { path: '$group', sum: ['$age', 1] } };
      const updated = await fx.service.update(dougId(), data);
      expect(updated).toMatchObject({ ...data, age: 32 });
      await expect(stored()).resolves.toMatchObject({ ...data, age: 32 });
    });

    it(
      `counts all of ${CONCURRENT_PATCHES} concurrent $inc patches of a ` +
        `kept field among ${CONCURRENT_UPDATES} updates`,
      async () => {
        const patches = Array.from({ length: CONCURRENT_PATCHES }, () =>
          fx.service.patch(dougId(), { $inc: { age: 1 } }),
        );
        const updates = Array.from({ length: CONCURRENT_UPDATES }, (_unused, index) =>
          fx.service.update(dougId(), { name: `Doug ${index}` }),
        );
        await Promise.all([...patches, ...updates]);
        const reread = await stored();
        expect(reread.age).toBe(DOUG.age + CONCURRENT_PATCHES);
        expect(reread.name).toMatch(/^Doug \d$/);
      },
    );
  });
}
