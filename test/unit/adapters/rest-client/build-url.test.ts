import { buildUrl, fillRoute, resolveBaseUrl, servicePath } from '../../../../src/adapters/rest-client/build-url';

describe('resolveBaseUrl', () => {
  const original = (globalThis as any).location;
  afterEach(() => {
    if (original === undefined) delete (globalThis as any).location;
    else (globalThis as any).location = original;
  });

  it('strips trailing slashes of a given URL', () => {
    expect(resolveBaseUrl('http://127.0.0.1:3030/api/v1//')).toBe('http://127.0.0.1:3030/api/v1');
    expect(resolveBaseUrl('')).toBe('');
  });

  it("uses the page's origin without a URL in a browser", () => {
    (globalThis as any).location = {
      origin: 'http://example.test:8080',
      href: 'http://example.test:8080/app/page.html',
    };
    expect(resolveBaseUrl()).toBe('http://example.test:8080');
  });

  it('stays root-relative without a URL and without a page', () => {
    delete (globalThis as any).location;
    expect(resolveBaseUrl()).toBe('');
  });
});

describe('servicePath', () => {
  it('drops leading and trailing slashes', () => {
    expect(servicePath('/api/v1/messages/')).toBe('api/v1/messages');
  });
});

describe('fillRoute', () => {
  it('fills :name segments, percent-encoded', () => {
    expect(fillRoute('users/:userId/messages', { userId: 'a b/c?' })).toBe('users/a%20b%2Fc%3F/messages');
  });

  it('fails before any request when a value is missing', () => {
    expect(() => fillRoute('users/:userId/messages', {})).toThrow(
      expect.objectContaining({ name: 'BadRequest', message: expect.stringContaining('userId') }),
    );
  });

  it('does not look at route keys inherited from Object.prototype', () => {
    expect(() => fillRoute('x/:constructor', {})).toThrow(/constructor/);
  });
});

describe('buildUrl', () => {
  it('joins base, path, encoded id and query string', () => {
    expect(buildUrl('http://h:1/api', 'messages', 'a/b c', undefined, '?x=1')).toBe(
      'http://h:1/api/messages/a%2Fb%20c?x=1',
    );
  });

  it('keeps id 0 and leaves null/undefined ids off', () => {
    expect(buildUrl('', 'm', 0, undefined, '')).toBe('/m/0');
    expect(buildUrl('', 'm', null, undefined, '')).toBe('/m');
    expect(buildUrl('', 'm', undefined, undefined, '')).toBe('/m');
  });

  it('refuses dot segments, which URL parsers would resolve away', () => {
    expect(() => buildUrl('', 'm', '..', undefined, '')).toThrow(expect.objectContaining({ name: 'BadRequest' }));
    expect(() => fillRoute('a/:b', { b: '.' })).toThrow(/route parameter 'b'/);
    expect(buildUrl('', 'm', '...', undefined, '')).toBe('/m/...');
  });

  it('never treats the port of the base URL as a placeholder', () => {
    expect(buildUrl('http://h:3030', 'a/:b', 1, { b: 'x', 3030: 'no' }, '')).toBe('http://h:3030/a/x/1');
  });
});
