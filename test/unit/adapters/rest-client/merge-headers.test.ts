import { mergeHeaders, toHeaderRecord } from '../../../../src/adapters/rest-client/merge-headers';

describe('mergeHeaders', () => {
  it('merges case-insensitively, the last source wins', () => {
    expect(
      mergeHeaders({ Accept: 'application/json', 'Content-Type': 'a' }, { 'content-type': 'b' }, undefined, {
        'X-A': ['1', '2'],
      }),
    ).toEqual({
      Accept: 'application/json',
      'content-type': 'b',
      'X-A': '1, 2',
    });
  });

  it('skips undefined and removes a header for null', () => {
    expect(mergeHeaders({ Authorization: 'Bearer x', A: '1' }, { authorization: null, A: undefined })).toEqual({
      A: '1',
    });
  });
});

describe('toHeaderRecord', () => {
  it('reads fetch Headers, objects with toJSON and plain objects', () => {
    expect(toHeaderRecord(new Headers({ 'X-One': '1' }))).toEqual({ 'x-one': '1' });
    expect(toHeaderRecord({ toJSON: () => ({ 'X-Two': 2 }) })).toEqual({ 'x-two': '2' });
    expect(toHeaderRecord({ 'Set-Cookie': ['a', 'b'], none: undefined })).toEqual({ 'set-cookie': 'a, b' });
    expect(toHeaderRecord(undefined)).toEqual({});
  });
});
