import { expectServiceError, names, sameId, sortedNames, useService, type Person } from './contract-fixture';
import type { ContractServiceOptions, ContractTarget } from './contract-types';

const PEOPLE: Person[] = [
  { name: 'Bob', age: 25 },
  { name: 'Doug', age: 32 },
  { name: 'Alice', age: 19 },
];

/** The common query language: equality, the standard operators, `$or`/`$and` and the filters. */
export function describeQuerySyntax(target: ContractTarget, options: ContractServiceOptions): void {
  const fx = useService(target, { ...options, paginate: false }, PEOPLE);
  const find = (query: Record<string, unknown>) => fx.service.find({ query });

  describe('equality', () => {
    it('matches one field', async () => {
      expect(names(await find({ name: 'Alice' }))).toEqual(['Alice']);
    });

    it('matches every listed field (none here)', async () => {
      expect(await find({ name: 'Alice', age: 20 })).toEqual([]);
    });

    it('matches several fields together', async () => {
      expect(names(await find({ name: 'Alice', age: 19 }))).toEqual(['Alice']);
    });
  });

  describe('$sort', () => {
    it('ascending', async () => {
      expect(names(await find({ $sort: { name: 1 } }))).toEqual(['Alice', 'Bob', 'Doug']);
    });

    it('descending', async () => {
      expect(names(await find({ $sort: { name: -1 } }))).toEqual(['Doug', 'Bob', 'Alice']);
    });

    it("given as the strings '1' and '-1' (as from a URL)", async () => {
      expect(names(await find({ $sort: { name: '1' } }))).toEqual(['Alice', 'Bob', 'Doug']);
      expect(names(await find({ $sort: { age: '-1' } }))).toEqual(['Doug', 'Bob', 'Alice']);
    });
  });

  describe('$limit, $skip and $select', () => {
    it('$limit returns at most that many records', async () => {
      expect(await find({ $limit: 2 })).toHaveLength(2);
    });

    it('$limit 0 returns an empty array', async () => {
      expect(await find({ $limit: 0 })).toEqual([]);
    });

    it('$skip skips records in sort order', async () => {
      expect(names(await find({ $sort: { name: 1 }, $skip: 1 }))).toEqual(['Bob', 'Doug']);
    });

    it('$skip with $limit pages through the sorted records', async () => {
      expect(names(await find({ $sort: { name: 1 }, $skip: 1, $limit: 1 }))).toEqual(['Bob']);
    });

    it('$select returns the selected fields and always the id', async () => {
      const [alice] = await find({ name: 'Alice', $select: ['name'] });
      expect(sameId(fx.idOf(alice), fx.idOf(fx.seeded.Alice))).toBe(true);
      expect(alice.name).toBe('Alice');
      expect(alice.age).toBeUndefined();
    });
  });

  describe('operators', () => {
    it('$in', async () => {
      expect(sortedNames(await find({ name: { $in: ['Alice', 'Bob'] } }))).toEqual(['Alice', 'Bob']);
    });

    it('$nin', async () => {
      expect(names(await find({ name: { $nin: ['Alice', 'Bob'] } }))).toEqual(['Doug']);
    });

    it('$lt', async () => {
      expect(sortedNames(await find({ age: { $lt: 30 } }))).toEqual(['Alice', 'Bob']);
    });

    it('$lte', async () => {
      expect(sortedNames(await find({ age: { $lte: 25 } }))).toEqual(['Alice', 'Bob']);
    });

    it('$gt', async () => {
      expect(names(await find({ age: { $gt: 30 } }))).toEqual(['Doug']);
    });

    it('$gte', async () => {
      expect(sortedNames(await find({ age: { $gte: 25 } }))).toEqual(['Bob', 'Doug']);
    });

    it('$ne', async () => {
      expect(sortedNames(await find({ age: { $ne: 25 } }))).toEqual(['Alice', 'Doug']);
    });

    it('$eq', async () => {
      expect(names(await find({ age: { $eq: 19 } }))).toEqual(['Alice']);
    });

    it('$gt + $lt + $sort', async () => {
      expect(names(await find({ age: { $gt: 18, $lt: 30 }, $sort: { name: 1 } }))).toEqual(['Alice', 'Bob']);
    });
  });

  describe('logical operators', () => {
    it('$or', async () => {
      expect(names(await find({ $or: [{ name: 'Alice' }, { name: 'Bob' }], $sort: { name: 1 } }))).toEqual([
        'Alice',
        'Bob',
      ]);
    });

    it('$or with nested operators + $sort', async () => {
      const query = { $or: [{ name: 'Doug' }, { age: { $gte: 18, $lt: 25 } }], $sort: { name: 1 } };
      expect(names(await find(query))).toEqual(['Alice', 'Doug']);
    });

    it('$and', async () => {
      expect(names(await find({ $and: [{ age: 19 }] }))).toEqual(['Alice']);
    });

    it('$and + $or', async () => {
      expect(names(await find({ $and: [{ $or: [{ name: 'Alice' }] }] }))).toEqual(['Alice']);
    });

    it('$and with several conditions', async () => {
      expect(names(await find({ $and: [{ age: { $gt: 18 } }, { age: { $lt: 30 } }], $sort: { age: -1 } }))).toEqual([
        'Bob',
        'Alice',
      ]);
    });
  });

  describe('invalid queries', () => {
    it('an unknown top-level $ key is a BadRequest naming the key', async () => {
      await expectServiceError(find({ $foo: 'bar' }), 'BadRequest', 400, 'Invalid filter value $foo');
    });

    it('a field operator at the top level is a BadRequest naming the key', async () => {
      await expectServiceError(find({ $in: ['Alice'] }), 'BadRequest', 400, 'Invalid filter value $in');
      await expectServiceError(find({ $or: [{ $eq: 'Alice' }] }), 'BadRequest', 400, /\$eq/);
    });

    it('an unknown operator on a field is a BadRequest naming the key', async () => {
      await expectServiceError(find({ name: { $foo: 'bar' } }), 'BadRequest', 400, 'Invalid query parameter $foo');
    });

    it('an unknown operator inside $or is a BadRequest naming the key', async () => {
      await expectServiceError(find({ $or: [{ name: { $regexp: 'A' } }] }), 'BadRequest', 400, /\$regexp/);
    });

    it('$where is refused', async () => {
      await expectServiceError(find({ $where: 'true' }), 'BadRequest', 400, /\$where/);
      await expectServiceError(find({ $or: [{ $where: 'true' }] }), 'BadRequest', 400, /\$where/);
    });

    it('a non-integer or negative $limit / $skip is a BadRequest', async () => {
      await expectServiceError(find({ $limit: 'abc' }), 'BadRequest', 400);
      await expectServiceError(find({ $skip: -1 }), 'BadRequest', 400);
    });

    it('a $sort direction other than 1 / -1 is a BadRequest', async () => {
      await expectServiceError(find({ $sort: { name: 'up' } }), 'BadRequest', 400);
    });

    it('a condition mixing operators and field names is a BadRequest (id[]=&id[$ne]=1)', async () => {
      await expectServiceError(find({ name: { 0: '', $ne: 'Alice' } }), 'BadRequest', 400, /cannot be mixed/);
    });

    it('the same rules apply to the query of get, patch and remove', async () => {
      const id = fx.idOf(fx.seeded.Alice);
      await expectServiceError(fx.service.get(id, { query: { name: { $foo: 1 } } }), 'BadRequest', 400, /\$foo/);
      await expectServiceError(fx.service.patch(id, { age: 1 }, { query: { $foo: 1 } }), 'BadRequest', 400, /\$foo/);
      await expectServiceError(fx.service.remove(id, { query: { age: { $where: 1 } } }), 'BadRequest', 400, /\$where/);
      await expect(fx.service.get(id)).resolves.toMatchObject({ name: 'Alice', age: 19 });
    });
  });

  describe('values an allowed operator cannot use', () => {
    const withRegex = useService(
      target,
      { ...options, paginate: false, operators: ['$regex', '$options', '$elemMatch'] },
      PEOPLE,
    );
    const findWithRegex = (query: Record<string, unknown>) => withRegex.service.find({ query });

    it('an allowed operator works', async () => {
      expect(names(await findWithRegex({ name: { $regex: '^A' } }))).toEqual(['Alice']);
    });

    it('an invalid pattern or flag is a BadRequest, not a server error', async () => {
      await expectServiceError(findWithRegex({ name: { $regex: '(' } }), 'BadRequest', 400);
      await expectServiceError(findWithRegex({ name: { $regex: 'A', $options: '%' } }), 'BadRequest', 400);
    });

    it('a pattern with nested repetition is refused before it runs (catastrophic backtracking)', async () => {
      await expectServiceError(findWithRegex({ name: { $regex: '^(a+)+$' } }), 'BadRequest', 400, /exponential time/);
      await expectServiceError(
        findWithRegex({ $or: [{ name: { $regex: '(x|y*)*z' } }] }),
        'BadRequest',
        400,
        /exponential time/,
      );
    });

    it('$elemMatch with something other than an object is a BadRequest', async () => {
      await expectServiceError(findWithRegex({ name: { $elemMatch: 'x' } }), 'BadRequest', 400);
    });
  });
}
