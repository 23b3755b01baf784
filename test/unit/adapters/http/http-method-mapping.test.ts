import { allowedHttpMethods, isCallable, serviceMethodFor } from '../../../../src/adapters/http/http-method-mapping';

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
});
