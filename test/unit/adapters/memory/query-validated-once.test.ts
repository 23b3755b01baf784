import { MemoryService } from '../../../../src/adapters/memory';
import { filterQuery } from '../../../../src/application/query/filter-query';

jest.mock('../../../../src/application/query/filter-query', () => {
  const actual = jest.requireActual('../../../../src/application/query/filter-query');
  return { ...actual, filterQuery: jest.fn(actual.filterQuery) };
});

const validations = filterQuery as jest.MockedFunction<typeof filterQuery>;

describe('a public method validates its query once', () => {
  const query = { text: { $in: ['a', 'b'] }, $select: ['text'] };
  let service: MemoryService;

  beforeEach(async () => {
    service = new MemoryService({ paginate: { default: 10, max: 50 }, multi: true });
    await service.create([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    validations.mockClear();
  });

  it.each([
    ['find', () => service.find({ query })],
    ['get', () => service.get(0, { query })],
    ['create', () => service.create({ text: 'a' }, { query: { $select: ['text'] } })],
    ['update', () => service.update(0, { text: 'a' }, { query })],
    ['patch one', () => service.patch(0, { text: 'a' }, { query })],
    ['patch many', () => service.patch(null, { text: 'a' }, { query })],
    ['remove one', () => service.remove(0, { query })],
    ['remove many', () => service.remove(null, { query })],
  ])('%s', async (_name, run) => {
    await run();
    expect(validations).toHaveBeenCalledTimes(1);
  });

  it('validates again what a direct store call or a changed query brings', async () => {
    await service._find({ query });
    expect(validations).toHaveBeenCalledTimes(1);
    await expect(service._find({ query: { text: { $where: 'x' } } })).rejects.toMatchObject({ name: 'BadRequest' });
  });

  it('gives each of two interleaved calls its own query when a store reads it after an await', async () => {
    class DeferredStore extends MemoryService {
      override async _find(params?: Parameters<MemoryService['_find']>[0]) {
        await new Promise((resolve) => setImmediate(resolve));
        return super._find(params);
      }
    }
    const deferred = new DeferredStore({ paginate: false, multi: true });
    await deferred.create([{ text: 'a' }, { text: 'b' }]);
    const [a, b] = await Promise.all([
      deferred.find({ query: { text: 'a' } }),
      deferred.find({ query: { text: 'b' } }),
    ]);
    expect([a, b]).toEqual([[expect.objectContaining({ text: 'a' })], [expect.objectContaining({ text: 'b' })]]);
    await expect(
      Promise.all([deferred.find({ query: { text: 'a' } }), deferred.find({ query: { text: { $where: 'x' } } })]),
    ).rejects.toMatchObject({ name: 'BadRequest' });
  });
});
