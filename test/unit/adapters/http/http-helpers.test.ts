import { apiSecurityHeaders, captureSecurityHeaders } from '../../../../src/adapters/http/security-headers';
import { encodeLocation } from '../../../../src/adapters/http/encode-location';
import { errorResponse } from '../../../../src/adapters/http/error-response';
import { parseBearerToken } from '../../../../src/adapters/http/parse-bearer-token';
import { parseByteSize } from '../../../../src/adapters/http/parse-byte-size';
import { createRequestIdSource } from '../../../../src/adapters/http/request-id';
import { responseStatus } from '../../../../src/adapters/http/response-status';
import { GeneralError, NotFound } from '../../../../src/domain/errors';

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

describe('parseBearerToken', () => {
  it('reads Bearer tokens only', () => {
    expect(parseBearerToken('Bearer a.b.c')).toEqual({ strategy: 'jwt', accessToken: 'a.b.c' });
    expect(parseBearerToken('bearer   tok ')).toEqual({ strategy: 'jwt', accessToken: 'tok' });
    expect(parseBearerToken('Basic abc')).toBeUndefined();
    expect(parseBearerToken('Bearer')).toBeUndefined();
    expect(parseBearerToken(undefined)).toBeUndefined();
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

describe('errorResponse', () => {
  it('keeps service errors and hides unknown ones in production', () => {
    expect(errorResponse(new NotFound('gone'), true)).toEqual({ status: 404, unexpected: false, body: new NotFound('gone').toJSON() });
    expect(errorResponse(new Error('secret'), false).body).toEqual(new GeneralError('secret').toJSON());
    expect(errorResponse(new Error('secret'), true)).toMatchObject({ status: 500, unexpected: true, body: { message: 'Internal server error' } });
    expect(errorResponse('a string', false).body.message).toBe('Internal server error');
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
  it('is the REST set, with the pages\' Strict-Transport-Security (or none when helmet has none)', () => {
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
