import { MemoryService } from '../../../../src/adapters/memory';
import { assertKeepOnReplace } from '../../../../src/application/adapter/keep-on-replace';

describe('keepOnReplace option', () => {
  it('takes top-level field names, or nothing', () => {
    expect(() => assertKeepOnReplace(undefined)).not.toThrow();
    expect(() => assertKeepOnReplace([])).not.toThrow();
    expect(() => new MemoryService({ keepOnReplace: ['userId', 'likes', 'created_at'] })).not.toThrow();
  });

  it.each([
    ['a dotted path', ['likes.count']],
    ['an operator', ['$inc']],
    ['an empty name', ['']],
    ['a prototype key', ['__proto__']],
    ['a number', [1]],
  ])('refuses %s when the store is built', (_label, fields) => {
    expect(() => new MemoryService({ keepOnReplace: fields as string[] })).toThrow(
      /keepOnReplace takes top-level field names/,
    );
  });

  it('refuses something other than a list', () => {
    expect(() => assertKeepOnReplace('likes')).toThrow('keepOnReplace must be a list of field names');
  });
});
