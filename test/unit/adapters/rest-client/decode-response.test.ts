import { decodeResponse } from '../../../../src/adapters/rest-client/decode-response';
import * as errors from '../../../../src/domain/errors';

function thrown(call: () => unknown): any {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('decodeResponse', () => {
  it('returns the JSON result of a 2xx response', () => {
    expect(decodeResponse({ status: 200, headers: {}, text: '{"a":1}' })).toEqual({ a: 1 });
    expect(decodeResponse({ status: 201, headers: {}, text: '[1,2]' })).toEqual([1, 2]);
    expect(decodeResponse({ status: 200, headers: {}, body: { parsed: true } })).toEqual({ parsed: true });
  });

  it('returns null for 204 and for an empty body', () => {
    expect(decodeResponse({ status: 204, headers: {}, text: '' })).toBeNull();
    expect(decodeResponse({ status: 200, headers: {}, text: '   ' })).toBeNull();
    expect(decodeResponse({ status: 204, headers: {} })).toBeNull();
  });

  it('fails on a 2xx body that is not JSON', () => {
    const error = thrown(() =>
      decodeResponse({ status: 200, headers: { 'content-type': 'text/html' }, text: '<html>' }),
    );
    expect(error).toBeInstanceOf(errors.GeneralError);
    expect(error.response.status).toBe(200);
  });

  it.each(Object.entries(errors.errorClasses))(
    'revives %s from its JSON body with the response attached',
    (name, cls) => {
      const json = new cls('boom', { field: 'x' }).toJSON();
      const error = thrown(() =>
        decodeResponse({ status: json.code, statusText: 'S', headers: { 'x-a': '1' }, text: JSON.stringify(json) }),
      );
      expect(error).toBeInstanceOf(cls);
      expect(error).toMatchObject({ name, code: json.code, message: 'boom', data: { field: 'x' } });
      expect(error.response).toEqual({ status: json.code, statusText: 'S', headers: { 'x-a': '1' } });
    },
  );

  it('chooses the class by status for a non-JSON error body and keeps the text', () => {
    const error = thrown(() =>
      decodeResponse({ status: 502, statusText: 'Bad Gateway', headers: {}, text: '<h1>proxy down</h1>' }),
    );
    expect(error).toBeInstanceOf(errors.BadGateway);
    expect(error.message).toBe('Request failed with status 502 Bad Gateway');
    expect(error.data).toEqual({ body: '<h1>proxy down</h1>' });
    expect(error.response.status).toBe(502);
  });

  it('chooses the class by status for an empty error body', () => {
    expect(thrown(() => decodeResponse({ status: 410, headers: {}, text: '' }))).toBeInstanceOf(errors.Gone);
    expect(thrown(() => decodeResponse({ status: 503, headers: {}, text: '' }))).toBeInstanceOf(errors.Unavailable);
  });

  it('uses BadRequest for an unknown 4xx and GeneralError for an unknown 5xx', () => {
    const teapot = thrown(() => decodeResponse({ status: 418, headers: {}, text: '{"message":"short and stout"}' }));
    expect(teapot).toBeInstanceOf(errors.BadRequest);
    expect(teapot.response.status).toBe(418);
    expect(thrown(() => decodeResponse({ status: 599, headers: {}, text: 'x' }))).toBeInstanceOf(errors.GeneralError);
  });

  it('revives by code when the name is unknown', () => {
    const error = thrown(() =>
      decodeResponse({
        status: 409,
        headers: {},
        text: '{"name":"Custom","code":409,"message":"dup","className":"custom"}',
      }),
    );
    expect(error).toBeInstanceOf(errors.Conflict);
    expect(error.message).toBe('dup');
  });

  it('keeps response off the JSON form', () => {
    const error = thrown(() =>
      decodeResponse({
        status: 404,
        headers: {},
        text: '{"name":"NotFound","message":"no","code":404,"className":"not-found"}',
      }),
    );
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'NotFound',
      message: 'no',
      code: 404,
      className: 'not-found',
    });
  });
});
