import { DatabaseService } from '../../../src/adapters/mongo';
import { storedAsSent } from '../../../src/adapters/mongo/stored-as-sent';
import { createApp } from '../../../src/application/app/application';
import { startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';

let server: MongoTestServer;

beforeAll(async () => {
  server = await startMongoTestServer();
});

afterAll(async () => {
  await server?.close();
});

function build() {
  const collection = server.db().collection(server.uniqueName('created'));
  const app = createApp();
  app.use('items', new DatabaseService({ Model: collection, multi: true }));
  return { service: app.service('items'), collection };
}

/** What a client receives: the JSON text, key order included. */
const wire = (value: unknown): string => JSON.stringify(value);

/** `create` answers without reading the record back only when that changes nothing: the answer is what `get` gives. */
describe('DatabaseService create answers what get answers', () => {
  it.each([
    ['flat fields', { text: 'hello', n: 3, ok: true, none: null }],
    [
      'nested objects, arrays and dates',
      { text: 'x', tags: ['a', 'b'], meta: { at: new Date(1_700_000_000_000), deep: { list: [1, { y: 2 }] } } },
    ],
    ['large and fractional numbers', { big: 2 ** 40, fraction: 0.1, negative: -7 }],
    ['an _id given by the caller, not first', { text: 'mine', _id: 'custom-id-1' }],
    // These change on the way through BSON, so create reads the record back.
    ['an undefined field', { text: 'u', missing: undefined }],
    ['-0', { text: 'z', zero: -0 }],
    ['a lone surrogate', { text: 'bad \ud800 text' }],
    ['a Buffer', { text: 'b', bytes: Buffer.from('abc') }],
  ])('%s', async (_label, data) => {
    const { service } = build();
    const created = await service.create(data);
    const read = await service.get(created._id);
    expect(wire(created)).toBe(wire(read));
    expect(Object.keys(created)[0]).toBe('_id');
  });

  it('with $select, answers only the selected fields (read back)', async () => {
    const { service } = build();
    const created = await service.create({ text: 'sel', other: 1 }, { query: { $select: ['text'] } });
    expect(Object.keys(created).sort()).toEqual(['_id', 'text']);
  });

  it("never hands back the caller's own object", async () => {
    const { service, collection } = build();
    const data = { text: 'mine' };
    const created = await service.create(data);
    expect(created).not.toBe(data);
    expect(data).toEqual({ text: 'mine' });
    created.text = 'changed';
    expect((await collection.findOne({ _id: created._id }))?.text).toBe('mine');
  });
});

describe('storedAsSent', () => {
  it('accepts JSON-like values, Dates and ObjectIds; refuses what BSON would change', () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    expect(storedAsSent({ a: 'x', b: [1, { c: new Date() }], d: null })).toBe(true);
    for (const value of [
      { a: undefined },
      { a: -0 },
      { a: '\udc00' },
      { a: Buffer.from('x') },
      { a: new Map() },
      { a: 1n },
      { a: () => 1 },
      { a: sparse },
    ]) {
      expect([value, storedAsSent(value)]).toEqual([value, false]);
    }
  });
});
