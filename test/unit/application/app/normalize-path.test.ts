import { normalizePath } from '../../../../src/application/app/normalize-path';
import { isReservedMethodName } from '../../../../src/application/app/reserved-names';

describe('normalizePath', () => {
  it.each([
    ['people', 'people'],
    ['/people', 'people'],
    ['people/', 'people'],
    ['//api/v1/people//', 'api/v1/people'],
    ['users/:userId/messages', 'users/:userId/messages'],
    ['/', '/'],
    ['', '/'],
  ])('%p -> %p', (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });

  it('refuses a non-string path', () => {
    expect(() => normalizePath(42 as never)).toThrow('A service path must be a string');
  });
});

describe('isReservedMethodName', () => {
  it.each([
    'constructor',
    'toString',
    'valueOf',
    '__proto__',
    'on',
    'emit',
    'removeListener',
    'hooks',
    'setup',
    'teardown',
    'publish',
    'all',
    'around',
    'before',
    'after',
    'error',
  ])('%s is reserved', (name) => {
    expect(isReservedMethodName(name)).toBe(true);
  });

  it.each(['find', 'customMethod', 'resetPassword'])('%s is not', (name) => {
    expect(isReservedMethodName(name)).toBe(false);
  });
});
