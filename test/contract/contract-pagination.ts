import { expectServiceError, names, useService, type Person } from './contract-fixture';
import type { ContractServiceOptions, ContractTarget } from './contract-types';
import { describeIf } from '../helpers/skip-with-reason';

const PEOPLE: Person[] = [
  { name: 'Bob', age: 25 },
  { name: 'Doug', age: 32 },
  { name: 'Alice', age: 19 },
];

/** Pages `{ total, limit, skip, data }` and the per-call overrides of pagination and multi. */
export function describePagination(target: ContractTarget, base: ContractServiceOptions): void {
  const capabilities = { adapterParams: true, paginateParam: true, ...target.capabilities };

  describe('with paginate { default: 1, max: 2 }', () => {
    const fx = useService(target, { ...base, paginate: { default: 1, max: 2 } }, PEOPLE);

    it('find returns a page of the default size with the total', async () => {
      const page = await fx.service.find({ query: { $sort: { name: -1 } } });
      expect(page).toMatchObject({ total: 3, limit: 1, skip: 0 });
      expect(names(page.data)).toEqual(['Doug']);
    });

    it('total counts only records matching the query', async () => {
      const page = await fx.service.find({ query: { name: 'Bob' } });
      expect(page).toMatchObject({ total: 1, limit: 1, skip: 0 });
      expect(names(page.data)).toEqual(['Bob']);
    });

    it('$limit is capped by max and $skip is reported', async () => {
      const page = await fx.service.find({ query: { $sort: { name: -1 }, $skip: 1, $limit: 4 } });
      expect(page).toMatchObject({ total: 3, limit: 2, skip: 1 });
      expect(names(page.data)).toEqual(['Bob', 'Alice']);
    });

    it('$limit 0 only counts', async () => {
      const page = await fx.service.find({ query: { $limit: 0 } });
      expect(page).toEqual({ total: 3, limit: 0, skip: 0, data: [] });
    });

    it('a $skip past the end gives an empty page with the total', async () => {
      const page = await fx.service.find({ query: { $skip: 10 } });
      expect(page).toMatchObject({ total: 3, skip: 10, data: [] });
    });

    it('a page holds exactly the keys total, limit, skip and data', async () => {
      const page = await fx.service.find();
      expect(Object.keys(page).sort()).toEqual(['data', 'limit', 'skip', 'total']);
    });

    describeIf(capabilities.paginateParam, `${target.name} cannot send params.paginate over the wire`)(
      'params.paginate',
      () => {
        it('an object replaces the service setting for one call', async () => {
          const page = await fx.service.find({ paginate: { default: 3 } });
          expect(page).toMatchObject({ total: 3, limit: 3, skip: 0 });
          expect(page.data).toHaveLength(3);
        });

        it('false returns a plain array for one call, without the max cap', async () => {
          const records = await fx.service.find({ paginate: false, query: { $limit: 10 } });
          expect(Array.isArray(records)).toBe(true);
          expect(records).toHaveLength(3);
          const page = await fx.service.find();
          expect(page.limit).toBe(1);
        });
      },
    );

    describeIf(capabilities.adapterParams, `${target.name} cannot send params.adapter over the wire`)(
      'params.adapter',
      () => {
        it('paginate replaces the service setting for one call', async () => {
          const page = await fx.service.find({ adapter: { paginate: { default: 3 } } });
          expect(page).toMatchObject({ limit: 3, skip: 0, total: 3 });
        });
      },
    );
  });

  describe('with paginate { max: 2 } and no default', () => {
    const fx = useService(target, { ...base, paginate: { max: 2 } }, PEOPLE);

    it('find uses max as the page size', async () => {
      const page = await fx.service.find({ query: { $sort: { name: 1 } } });
      expect(page).toMatchObject({ total: 3, limit: 2, skip: 0 });
      expect(names(page.data)).toEqual(['Alice', 'Bob']);
    });

    it('a smaller $limit is honoured', async () => {
      const page = await fx.service.find({ query: { $limit: 1 } });
      expect(page).toMatchObject({ total: 3, limit: 1 });
      expect(page.data).toHaveLength(1);
    });
  });

  describeIf(capabilities.adapterParams, `${target.name} cannot send params.adapter over the wire`)(
    'params.adapter on a service without multi',
    () => {
      const fx = useService(target, { ...base, multi: false, paginate: false }, PEOPLE);

      it("multi ['create'] allows an array create for that call only", async () => {
        const adapter = { multi: ['create'] };
        const created = await fx.service.create(
          [
            { name: 'Eve', age: 40 },
            { name: 'Fay', age: 41 },
          ],
          { adapter },
        );
        expect(created).toHaveLength(2);
        await expectServiceError(
          fx.service.patch(null, { age: 1 }, { adapter }),
          'MethodNotAllowed',
          405,
          'Can not patch multiple entries',
        );
        await expectServiceError(
          fx.service.create([{ name: 'Gus', age: 42 }]),
          'MethodNotAllowed',
          405,
          'Can not create multiple entries',
        );
      });

      it('paginate turns pagination on for that call only', async () => {
        const page = await fx.service.find({ adapter: { paginate: { default: 2 } } });
        expect(page).toMatchObject({ total: 3, limit: 2, skip: 0 });
        expect(Array.isArray(await fx.service.find())).toBe(true);
      });
    },
  );
}
