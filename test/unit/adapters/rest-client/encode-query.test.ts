import { parse } from 'qs';
import { encodeQuery } from '../../../../src/adapters/rest-client/encode-query';
import { FetchClient } from '../../../../src/adapters/rest-client';
import { QUERY_PARSE_OPTIONS } from '../../../../src/application/query/query-string-options';

/** What the server's `qs.parse` makes of the client's string (values arrive as strings). */
function roundTrip(query: Record<string, unknown>): unknown {
  const encoded = encodeQuery(query);
  return parse(encoded.slice(1), { ...QUERY_PARSE_OPTIONS });
}

const asStrings = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_key, item) => (typeof item === 'number' ? String(item) : item)));

describe('encodeQuery', () => {
  it('is empty for an empty or missing query', () => {
    expect(encodeQuery({})).toBe('');
    expect(encodeQuery(undefined)).toBe('');
    expect(encodeQuery({ a: undefined })).toBe('');
  });

  it('starts with ? and percent-encodes brackets and values', () => {
    expect(encodeQuery({ name: 'a&b=c', $limit: 2 })).toBe('?name=a%26b%3Dc&%24limit=2');
  });

  it('round-trips nested $or, $in arrays, $sort and $select through the server parser', () => {
    const query = {
      $or: [
        { name: 'Alice' },
        { age: { $gt: 30, $lte: 40 } },
        { $and: [{ group: { $in: ['a', 'b'] } }, { name: { $ne: 'Bob' } }] },
      ],
      group: { $in: ['x', 'y', 'z'], $nin: ['w'] },
      $sort: { age: -1, name: 1 },
      $select: ['name', 'age'],
      $limit: 10,
      $skip: 0,
      text: 'ümlaut & [brackets] = %',
    };
    expect(roundTrip(query)).toEqual(asStrings(query));
  });

  it('keeps one-element arrays and arrays of objects unambiguous', () => {
    const query = { $or: [{ a: '1', b: '2' }], $in: ['only'] };
    expect(roundTrip(query)).toEqual(query);
  });

  it('refuses an empty array instead of widening the query', () => {
    expect(() => encodeQuery({ id: { $in: [] } })).toThrow(
      expect.objectContaining({ name: 'BadRequest', message: expect.stringContaining('id.$in') }),
    );
    expect(() => encodeQuery({ $or: [] })).toThrow(/empty array/);
  });
});

describe('getQuery', () => {
  it('is overridable by a subclass', () => {
    class JsonQueryClient extends FetchClient {
      override getQuery(query: Record<string, unknown>): string {
        return Object.keys(query).length === 0 ? '' : `?q=${encodeURIComponent(JSON.stringify(query))}`;
      }
    }
    const client = new JsonQueryClient({
      base: 'http://h',
      name: 'm',
      connection: async () => ({ status: 204, headers: {}, text: async () => '' }),
    });
    expect(client.makeUrl({ a: 1 })).toBe('http://h/m?q=%7B%22a%22%3A1%7D');
    expect(client.makeUrl({}, 5)).toBe('http://h/m/5');
  });
});
