import { apiSecurityHeaders, captureSecurityHeaders } from '../../../../src/adapters/http/security-headers';
import { encodeLocation } from '../../../../src/adapters/http/encode-location';
import { parseByteSize } from '../../../../src/adapters/http/parse-byte-size';
import { createRequestIdSource } from '../../../../src/adapters/http/request-id';
import { responseStatus } from '../../../../src/adapters/http/response-status';

describe('responseStatus', () => {
  it('follows the Feathers order, with only null/undefined as empty', () => {
    expect(responseStatus('find', { status: 202 }, null)).toBe(202);
    expect(responseStatus('create', { location: '/x' }, {})).toBe(303);
    expect(responseStatus('create', {}, null)).toBe(204);
    expect(responseStatus('find', undefined, undefined)).toBe(204);
    expect(responseStatus('create', {}, {})).toBe(201);
    expect(responseStatus('markRead', {}, {})).toBe(200);
    expect(responseStatus('find', {}, 0)).toBe(200);
    expect(responseStatus('find', {}, false)).toBe(200);
  });
});

describe('encodeLocation', () => {
  it('encodes what a header may not hold and keeps valid escapes', () => {
    expect(encodeLocation('/somewhere else')).toBe('/somewhere%20else');
    expect(encodeLocation('/a%20b?c=%zz')).toBe('/a%20b?c=%25zz');
    expect(encodeLocation('/é\n')).toBe('/%C3%A9%0A');
    expect(encodeLocation('/x/\uD800')).toBe('/x/%EF%BF%BD');
  });
});

describe('parseByteSize', () => {
  it('reads sizes and refuses nonsense', () => {
    expect(parseByteSize('1mb')).toBe(1024 * 1024);
    expect(parseByteSize('100kb')).toBe(102400);
    expect(parseByteSize('512')).toBe(512);
    expect(parseByteSize(10)).toBe(10);
    expect(() => parseByteSize('lots')).toThrow();
    expect(() => parseByteSize(-1)).toThrow();
  });
});

describe('createRequestIdSource', () => {
  it('keeps safe incoming ids and generates unique ones otherwise', () => {
    const next = createRequestIdSource();
    expect(next('abc-1')).toBe('abc-1');
    const generated = new Set(Array.from({ length: 100 }, () => next(undefined)));
    expect(generated.size).toBe(100);
    for (const unsafe of ['a b', 'x'.repeat(65), '', ['a', 'b']]) expect(next(unsafe)).not.toEqual(unsafe);
  });
});

describe('captureSecurityHeaders', () => {
  it('records helmet headers once, honouring its options', () => {
    const headers = captureSecurityHeaders();
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toMatch(/max-age=/);
    expect(captureSecurityHeaders({ frameguard: { action: 'deny' } })['x-frame-options']).toBe('DENY');
    expect(captureSecurityHeaders({ contentSecurityPolicy: false })['content-security-policy']).toBeUndefined();
  });
});

describe('apiSecurityHeaders', () => {
  it("is the REST set, with the pages' Strict-Transport-Security (or none when helmet has none)", () => {
    expect(apiSecurityHeaders(captureSecurityHeaders())).toEqual({
      'cache-control': 'no-store',
      'content-security-policy': "frame-ancestors 'none'",
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
    const withoutHsts = apiSecurityHeaders(captureSecurityHeaders({ strictTransportSecurity: false }));
    expect(withoutHsts['strict-transport-security']).toBeUndefined();
    expect(Object.isFrozen(withoutHsts)).toBe(true);
  });
});
