import { allowedHttpMethods, hasRequestBody, isCallable, serviceArguments, serviceMethodFor } from '../../../../src/adapters/http/http-method-mapping';

describe('http-method-mapping', () => {
  it.each([
    ['GET', false, undefined, 'find'],
    ['GET', true, undefined, 'get'],
    ['HEAD', false, undefined, 'find'],
    ['HEAD', true, undefined, 'get'],
    ['POST', false, undefined, 'create'],
    ['POST', true, undefined, 'create'],
    ['POST', false, 'markRead', 'markRead'],
    ['POST', true, 'markRead', 'markRead'],
    ['POST', false, '', 'create'],
    ['PUT', true, undefined, 'update'],
    ['PUT', false, undefined, 'update'],
    ['PATCH', true, undefined, 'patch'],
    ['PATCH', false, undefined, 'patch'],
    ['DELETE', true, undefined, 'remove'],
    ['DELETE', false, undefined, 'remove'],
    ['OPTIONS', false, undefined, undefined],
    ['TRACE', true, undefined, undefined],
  ])('%s (id: %s, header: %s) -> %s', (verb, hasId, header, expected) => {
    expect(serviceMethodFor(verb, hasId, header)).toBe(expected);
  });

  it('custom-method headers may not name standard methods, and must be listed', () => {
    const methods = ['find', 'create', 'markRead'];
    expect(isCallable('markRead', methods, true)).toBe(true);
    expect(isCallable('create', methods, true)).toBe(false);
    expect(isCallable('create', methods, false)).toBe(true);
    expect(isCallable('update', methods, false)).toBe(false);
    expect(isCallable('other', methods, true)).toBe(false);
  });

  it('computes Allow for collection and item URLs', () => {
    const all = ['find', 'get', 'create', 'update', 'patch', 'remove'];
    expect(allowedHttpMethods(all, false)).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(allowedHttpMethods(['get'], false)).toBe('');
    expect(allowedHttpMethods(['get'], true)).toBe('GET, HEAD');
    expect(allowedHttpMethods(['markRead'], false)).toBe('POST');
  });

  it('builds the argument list of each method', () => {
    const params = { provider: 'rest' };
    expect(serviceArguments('find', null, undefined, params)).toEqual([params]);
    expect(serviceArguments('get', '1', undefined, params)).toEqual(['1', params]);
    expect(serviceArguments('remove', null, undefined, params)).toEqual([null, params]);
    expect(serviceArguments('create', null, { a: 1 }, params)).toEqual([{ a: 1 }, params]);
    expect(serviceArguments('update', '1', { a: 1 }, params)).toEqual(['1', { a: 1 }, params]);
    expect(serviceArguments('patch', null, { a: 1 }, params)).toEqual([null, { a: 1 }, params]);
    expect(serviceArguments('markRead', '1', { a: 1 }, params)).toEqual([{ a: 1 }, params]);
  });

  it('reads a body only for methods that take data', () => {
    expect(['find', 'get', 'remove'].map(hasRequestBody)).toEqual([false, false, false]);
    expect(['create', 'update', 'patch', 'markRead'].map(hasRequestBody)).toEqual([true, true, true, true]);
  });
});
