import { isPaginated } from '../../../src/domain/paginated';

describe('isPaginated', () => {
  it('recognizes pages by a numeric total and a data array', () => {
    expect(isPaginated({ total: 0, limit: 0, skip: 0, data: [] })).toBe(true);
    expect(isPaginated({ total: 1, data: [{}] })).toBe(true);
    expect(isPaginated([])).toBe(false);
    expect(isPaginated({ total: '1', data: [] })).toBe(false);
    expect(isPaginated({ total: 1, data: {} })).toBe(false);
    expect(isPaginated(null)).toBe(false);
  });
});
