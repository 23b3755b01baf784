import { filterQuery } from '../../../../src/application/query/filter-query';
import { MAX_QUERY_DEPTH } from '../../../../src/domain/query';

/** Runs filterQuery and returns the thrown error (or fails when nothing is thrown). */
function rejection(query: unknown, options: Parameters<typeof filterQuery>[1] = {}): any {
  try {
    filterQuery(query, options);
  } catch (error) {
    return error;
  }
  throw new Error(`filterQuery accepted ${JSON.stringify(query)}`);
}

function expectBadRequest(
  query: unknown,
  message?: string | RegExp,
  options: Parameters<typeof filterQuery>[1] = {},
): any {
  const error = rejection(query, options);
  expect({ name: error.name, code: error.code }).toEqual({ name: 'BadRequest', code: 400 });
  if (message !== undefined) expect(error.message).toMatch(message);
  return error;
}

function nested(depth: number, leaf: unknown): Record<string, unknown> {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value as Record<string, unknown>;
}

describe('filterQuery', () => {
  describe('splitting', () => {
    it('separates the filters from the conditions', () => {
      const result = filterQuery({
        $limit: 2,
        $skip: 1,
        $sort: { name: 1 },
        $select: ['name'],
        name: 'Alice',
        age: { $gt: 3 },
        $or: [{ a: 1 }],
      });
      expect(result).toEqual({
        filters: { $limit: 2, $skip: 1, $sort: { name: 1 }, $select: ['name'] },
        query: { name: 'Alice', age: { $gt: 3 }, $or: [{ a: 1 }] },
      });
    });

    it('accepts a missing or null query', () => {
      expect(filterQuery(undefined)).toEqual({ filters: {}, query: {} });
      expect(filterQuery(null)).toEqual({ filters: {}, query: {} });
    });

    it('drops keys whose value is undefined', () => {
      expect(filterQuery({ name: undefined, $limit: undefined })).toEqual({ filters: {}, query: {} });
    });

    it('refuses a query that is not an object', () => {
      expectBadRequest([{ a: 1 }], 'The query must be an object');
      expectBadRequest('name=x', 'The query must be an object');
    });

    it('accepts every standard operator and $and / $or', () => {
      const query = {
        a: { $in: [1], $nin: [2], $lt: 3, $lte: 4, $gt: 0, $gte: 1, $ne: 5, $eq: 2 },
        $and: [{ $or: [{ b: 1 }] }],
      };
      expect(filterQuery(query).query).toEqual(query);
    });

    it('keeps Dates and BSON values as they are', () => {
      class FakeObjectId {
        readonly _bsontype = 'ObjectId';
      }
      const id = new FakeObjectId();
      const when = new Date(5);
      const { query } = filterQuery({ _id: id, at: { $lt: when } });
      expect(query._id).toBe(id);
      expect(query.at.$lt).toBe(when);
    });
  });

  describe('unknown keys', () => {
    it("an unknown top-level $key is 'Invalid filter value $key' without data", () => {
      const error = expectBadRequest({ $foo: 1 }, 'Invalid filter value $foo');
      expect(error.data).toBeUndefined();
    });

    it("an unknown nested operator is 'Invalid query parameter $key' with the offending object", () => {
      const error = expectBadRequest({ name: { $foo: '1' } }, 'Invalid query parameter $foo');
      expect(error.data).toEqual({ $foo: '1' });
    });

    it('an unknown operator inside $or / $and branches or arrays is refused', () => {
      expectBadRequest({ $or: [{ $foo: 1 }] }, 'Invalid query parameter $foo');
      expectBadRequest({ $and: [{ name: { $exists: true } }] }, 'Invalid query parameter $exists');
      expectBadRequest({ name: { $in: [{ $foo: 1 }] } }, 'Invalid query parameter $foo');
      expectBadRequest({ name: [{ $foo: 1 }] }, 'Invalid query parameter $foo');
    });

    it('$or nested inside a field is not an operator', () => {
      expectBadRequest({ name: { $or: [{ a: 1 }] } }, 'Invalid query parameter $or');
    });
  });

  describe('prototype keys', () => {
    it.each(['__proto__', 'constructor', 'prototype'])(
      'refuses %s at the top, nested, in arrays and inside $or',
      (key) => {
        const json = (text: string) => JSON.parse(text.replaceAll('KEY', key));
        expectBadRequest(json('{"KEY": {"a": 1}}'), `Invalid query parameter ${key}`);
        expectBadRequest(json('{"name": {"KEY": 1}}'), `Invalid query parameter ${key}`);
        expectBadRequest(json('{"name": {"$in": [{"KEY": 1}]}}'), `Invalid query parameter ${key}`);
        expectBadRequest(json('{"$or": [{"KEY": "x"}]}'), `Invalid query parameter ${key}`);
        expectBadRequest(json('{"$and": [{"$or": [{"KEY": "x"}]}]}'), `Invalid query parameter ${key}`);
      },
    );

    it('a constructor key cannot hide an operator inside $or', () => {
      expectBadRequest(
        { $or: [{ constructor: 'x', $where: 'sleep(1000)' }] },
        /Invalid query parameter (constructor|\$where)/,
      );
    });

    it('refuses prototype keys as $sort or $select fields', () => {
      expectBadRequest(JSON.parse('{"$sort": {"__proto__": 1}}'));
      expectBadRequest({ $select: ['constructor'] });
      expectBadRequest({ $select: ['a.__proto__.b'] });
    });

    it('walks objects of any prototype (no class instance hides an operator)', () => {
      const sneaky = Object.assign(Object.create(null), { $where: 'x' });
      expectBadRequest({ name: sneaky }, 'Invalid query parameter $where');
      class Holder {
        $where = 'x';
      }
      expectBadRequest({ name: new Holder() }, 'Invalid query parameter $where');
    });
  });

  describe('code-running operators', () => {
    it.each(['$where', '$expr', '$function', '$accumulator'])(
      'refuses %s everywhere, even when listed in operators',
      (operator) => {
        const options = { operators: [operator] };
        expectBadRequest({ [operator]: 'x' }, `Invalid filter value ${operator}`, options);
        expectBadRequest({ name: { [operator]: 'x' } }, `Invalid query parameter ${operator}`, options);
        expectBadRequest({ $or: [{ [operator]: 'x' }] }, `Invalid query parameter ${operator}`, options);
      },
    );
  });

  describe('$limit and $skip', () => {
    it.each(['$limit', '$skip'])('%s accepts non-negative integers and decimal strings', (key) => {
      expect(filterQuery({ [key]: 0 }).filters[key]).toBe(0);
      expect(filterQuery({ [key]: 25 }).filters[key]).toBe(25);
      expect(filterQuery({ [key]: '25' }).filters[key]).toBe(25);
    });

    it.each([
      ['$limit', 'abc'],
      ['$limit', '-1'],
      ['$limit', -1],
      ['$limit', 1.5],
      ['$limit', '1.5'],
      ['$limit', ''],
      ['$limit', true],
      ['$limit', [1]],
      ['$limit', { $gt: 1 }],
      ['$limit', Number.NaN],
      ['$limit', Infinity],
      ['$skip', 'abc'],
      ['$skip', '-1'],
      ['$skip', -1],
      ['$skip', 1.5],
      ['$skip', '1e3'],
      ['$skip', null],
    ])('%s %p is a BadRequest naming the filter', (key, value) => {
      expectBadRequest({ [key]: value }, key);
    });
  });

  describe('$sort', () => {
    it("accepts 1, -1, '1' and '-1' and returns numbers", () => {
      expect(filterQuery({ $sort: { a: 1, b: -1, c: '1', d: '-1' } }).filters.$sort).toEqual({
        a: 1,
        b: -1,
        c: 1,
        d: -1,
      });
    });

    it.each([0, 2, 'asc', 'desc', '', null, { $gt: 1 }, true])('refuses the direction %p', (direction) => {
      expectBadRequest({ $sort: { name: direction } }, '$sort');
    });

    it('refuses a $sort that is not an object, and $-prefixed fields', () => {
      expectBadRequest({ $sort: 'name' }, '$sort');
      expectBadRequest({ $sort: ['name'] }, '$sort');
      expectBadRequest({ $sort: { $natural: 1 } }, '$sort');
    });
  });

  describe('$select', () => {
    it('accepts an array of field names, dotted paths included', () => {
      expect(filterQuery({ $select: ['name', 'address.city'] }).filters.$select).toEqual(['name', 'address.city']);
    });

    it.each([
      ['an object', { name: 1 }],
      ['a string', 'name'],
      ['a $-prefixed field', ['$name']],
      ['a number item', ['name', 1]],
      ['an object item', [{ $meta: 'textScore' }]],
      ['an empty field name', ['']],
    ])('refuses %s', (_label, value) => {
      expectBadRequest({ $select: value }, '$select');
    });
  });

  describe('$or and $and', () => {
    it.each(['$or', '$and'])('%s must be an array of objects', (key) => {
      expectBadRequest({ [key]: { a: 1 } }, `${key} must be an array of queries`);
      expectBadRequest({ [key]: ['a'] }, `${key} must be an array of queries`);
      expectBadRequest({ [key]: [[{ a: 1 }]] }, `${key} must be an array of queries`);
    });
  });

  describe('the filters option', () => {
    it('true keeps the value as it is', () => {
      expect(filterQuery({ $populate: { a: 1 } }, { filters: { $populate: true } })).toEqual({
        filters: { $populate: { a: 1 } },
        query: {},
      });
    });

    it('a function converts the value; undefined drops it', () => {
      const options = { filters: { $ignoreCase: (value: unknown) => value === 'true', $drop: () => undefined } };
      expect(filterQuery({ $ignoreCase: 'true', $drop: 'x', name: 'a' }, options)).toEqual({
        filters: { $ignoreCase: true },
        query: { name: 'a' },
      });
    });

    it('is looked up as an own key only', () => {
      expectBadRequest({ $toString: 1 }, 'Invalid filter value $toString', { filters: {} });
    });
  });

  describe('the operators option', () => {
    it('adds operators to the standard ones', () => {
      const query = { name: { $regex: '^A', $options: 'i' }, age: { $gt: 1 } };
      expect(filterQuery(query, { operators: ['$regex', '$options'] }).query).toEqual(query);
      expectBadRequest(query, 'Invalid query parameter $regex');
    });

    it('$in and $nin need arrays', () => {
      expectBadRequest({ name: { $in: 'a' } }, '$in needs an array');
      expectBadRequest({ name: { $nin: { a: 1 } } }, '$nin needs an array');
    });
  });

  describe('depth limit', () => {
    it(`accepts conditions nested up to the limit (${MAX_QUERY_DEPTH})`, () => {
      expect(() => filterQuery({ field: nested(MAX_QUERY_DEPTH - 1, 1) })).not.toThrow();
    });

    it('refuses conditions nested deeper', () => {
      expectBadRequest({ field: nested(MAX_QUERY_DEPTH + 5, 1) }, 'nested too deeply');
    });

    it('refuses $or / $and nested deeper than the limit', () => {
      let query: Record<string, unknown> = { a: 1 };
      for (let level = 0; level < MAX_QUERY_DEPTH + 5; level++) query = { $or: [query] };
      expectBadRequest(query, 'nested too deeply');
    });

    it('refuses deeply nested arrays', () => {
      let value: unknown = 1;
      for (let level = 0; level < MAX_QUERY_DEPTH + 5; level++) value = [value];
      expectBadRequest({ field: value }, 'nested too deeply');
    });
  });

  describe('pagination', () => {
    it('resolves $limit against paginate', () => {
      const paginate = { default: 10, max: 50 };
      expect(filterQuery({}, { paginate }).filters.$limit).toBe(10);
      expect(filterQuery({ $limit: 100 }, { paginate }).filters.$limit).toBe(50);
      expect(filterQuery({ $limit: '0' }, { paginate }).filters.$limit).toBe(0);
      expect(filterQuery({}, { paginate: false }).filters.$limit).toBeUndefined();
    });
  });

  it('never mutates its input and returns fresh objects', () => {
    const input = {
      $sort: { a: '1' },
      $limit: '5',
      $select: ['a'],
      a: { $in: [1, { b: 2 }] },
      $or: [{ c: { $gt: 1 } }],
    };
    const copy = structuredClone(input);
    const { filters, query } = filterQuery(input, { paginate: { default: 2, max: 3 } });
    expect(input).toEqual(copy);
    expect(query.a).not.toBe(input.a);
    expect(query.a.$in[1]).not.toBe(input.a.$in[1]);
    expect(query.$or[0]).not.toBe(input.$or[0]);
    expect(filters.$select).not.toBe(input.$select);
    expect(filters.$sort).not.toBe(input.$sort);
  });
});

describe('filterQuery: field operators out of place', () => {
  it.each(['$in', '$nin', '$lt', '$lte', '$gt', '$gte', '$ne', '$eq'])(
    '%s at the top level or as a $or branch key is a BadRequest',
    (operator) => {
      expectBadRequest({ [operator]: [1] }, `Invalid filter value ${operator}`);
      expectBadRequest({ $or: [{ [operator]: [1] }] }, `Invalid query parameter ${operator}`);
    },
  );

  it('a listed extra operator may stand at the top level (e.g. $text)', () => {
    expect(filterQuery({ $text: { $search: 'x' } }, { operators: ['$text', '$search'] }).query).toEqual({
      $text: { $search: 'x' },
    });
  });
});

describe('filterQuery: operators beside field names', () => {
  it('refuses a condition that mixes operators and field names (id[]=&id[$ne]=1)', () => {
    expectBadRequest(
      { id: { 0: '', $ne: '1' } },
      "Operators and field names cannot be mixed in one condition ($ne beside '0')",
    );
    expectBadRequest({ $or: [{ a: { b: 1, $gt: 2 } }] }, /cannot be mixed/);
    expectBadRequest({ a: { $elemMatch: { b: 1, $gt: 2 } } }, /cannot be mixed/, { operators: ['$elemMatch'] });
  });

  it('keeps operator objects and plain values to compare with', () => {
    expect(filterQuery({ id: { $ne: '1', $gt: '0' }, meta: { 0: '', b: { c: 1 } } }).query).toEqual({
      id: { $ne: '1', $gt: '0' },
      meta: { 0: '', b: { c: 1 } },
    });
  });

  it('lets logical operators stand beside fields in an $elemMatch query', () => {
    const query = { items: { $elemMatch: { kind: 'a', $or: [{ size: 1 }, { size: 2 }] } } };
    expect(filterQuery(query, { operators: ['$elemMatch', '$or'] }).query).toEqual(query);
  });
});

describe('filterQuery: $regex and $options', () => {
  const operators = ['$regex', '$options', '$not', '$elemMatch'];

  it('keeps a valid pattern with allowed flags', () => {
    const query = {
      name: { $regex: '^Al(ice|an)\\b', $options: 'im' },
      tags: { $elemMatch: { $regex: '^x' } },
      text: { $not: { $regex: 'spam' } },
    };
    expect(filterQuery(query, { operators }).query).toEqual(query);
  });

  it.each([
    [{ $regex: 1 }, '$regex must be a string'],
    [{ $regex: ['a'] }, '$regex must be a string'],
    [{ $options: 'i' }, '$options needs $regex beside it'],
    [{ $regex: 'a'.repeat(1025) }, '$regex must be at most 1024 characters'],
    [{ $regex: 'a', $options: 'g' }, '$options may only hold the flags i, m, s and x'],
    [{ $regex: 'a', $options: 'ii' }, '$options may only hold the flags i, m, s and x'],
    [{ $regex: 'a', $options: 1 }, '$options may only hold the flags i, m, s and x'],
    [{ $regex: '(' }, '$regex is not a valid regular expression'],
    [{ $regex: 'a{2,1}' }, '$regex is not a valid regular expression'],
    [{ $regex: '^(a+)+$' }, /exponential time/],
    [{ $regex: '(\\w*\\s?)*$' }, /exponential time/],
    [{ $regex: 'a?'.repeat(30) }, /too many repetitions/],
  ])('refuses %j', (condition, message) => {
    expectBadRequest({ name: condition }, message, { operators });
    expectBadRequest({ $or: [{ name: condition }] }, message, { operators });
  });

  it("accepts the x flag (MongoDB's extended syntax), which JavaScript lacks", () => {
    expect(filterQuery({ name: { $regex: 'a b', $options: 'x' } }, { operators }).query).toEqual({
      name: { $regex: 'a b', $options: 'x' },
    });
  });

  it('trusts a RegExp from server code', () => {
    const pattern = /^(a+)+$/;
    expect(filterQuery({ name: { $regex: pattern } }, { operators }).query.name.$regex).toBe(pattern);
  });
});

describe('filterQuery internal values', () => {
  it('keeps a RegExp value (internal calls) as it is', () => {
    const pattern = /^b/i;
    expect(filterQuery({ name: pattern }).query.name).toBe(pattern);
  });
});
