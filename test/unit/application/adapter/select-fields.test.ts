import { selectFields } from '../../../../src/application/adapter/select-fields';

describe('selectFields', () => {
  const record = { id: 7, name: 'Alice', age: 19, address: { city: 'Oslo', zip: '0150' } };

  it('returns the record itself without $select', () => {
    expect(selectFields(record, undefined, 'id')).toBe(record);
  });

  it('keeps the selected fields plus the id field', () => {
    expect(selectFields(record, ['name'], 'id')).toEqual({ id: 7, name: 'Alice' });
  });

  it('keeps only the id for an empty selection', () => {
    expect(selectFields(record, [], 'id')).toEqual({ id: 7 });
  });

  it('uses the given id field', () => {
    expect(selectFields({ _id: 'x', id: 1, name: 'n' }, ['name'], '_id')).toEqual({ _id: 'x', name: 'n' });
  });

  it('skips fields the record does not have', () => {
    expect(selectFields(record, ['missing', 'age'], 'id')).toEqual({ id: 7, age: 19 });
  });

  it('selects nested values by dotted path', () => {
    expect(selectFields(record, ['address.city'], 'id')).toEqual({ id: 7, address: { city: 'Oslo' } });
    expect(selectFields(record, ['address.city', 'address.zip'], 'id')).toEqual({
      id: 7,
      address: { city: 'Oslo', zip: '0150' },
    });
    expect(selectFields(record, ['address.street.no'], 'id')).toEqual({ id: 7 });
  });

  it('never reads inherited properties', () => {
    expect(selectFields(record, ['toString', 'constructor'], 'id')).toEqual({ id: 7 });
  });

  it('does not change the record', () => {
    const copy = structuredClone(record);
    selectFields(record, ['address.city'], 'id');
    expect(record).toEqual(copy);
  });

  it('leaves non-objects alone', () => {
    expect(selectFields(null, ['a'], 'id')).toBeNull();
  });
});
