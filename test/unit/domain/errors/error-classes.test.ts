import * as errors from '../../../../src/domain/errors';
import { errorClasses, errorClassForCode, ServiceError } from '../../../../src/domain/errors';

const TABLE: ReadonlyArray<[string, number, string]> = [
  ['BadRequest', 400, 'bad-request'],
  ['NotAuthenticated', 401, 'not-authenticated'],
  ['PaymentError', 402, 'payment-error'],
  ['Forbidden', 403, 'forbidden'],
  ['NotFound', 404, 'not-found'],
  ['MethodNotAllowed', 405, 'method-not-allowed'],
  ['NotAcceptable', 406, 'not-acceptable'],
  ['Timeout', 408, 'timeout'],
  ['Conflict', 409, 'conflict'],
  ['Gone', 410, 'gone'],
  ['LengthRequired', 411, 'length-required'],
  ['PayloadTooLarge', 413, 'payload-too-large'],
  ['Unprocessable', 422, 'unprocessable'],
  ['TooManyRequests', 429, 'too-many-requests'],
  ['GeneralError', 500, 'general-error'],
  ['NotImplemented', 501, 'not-implemented'],
  ['BadGateway', 502, 'bad-gateway'],
  ['Unavailable', 503, 'unavailable'],
];

describe('error classes', () => {
  it('the table lists every exported class', () => {
    expect(Object.keys(errorClasses).sort()).toEqual(TABLE.map(([name]) => name).sort());
  });

  describe.each(TABLE)('%s', (name, code, className) => {
    const Class = errorClasses[name];

    it(`has name ${name}, code ${code}, className ${className}`, () => {
      const error = new Class('boom');
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toBeInstanceOf(Class);
      expect({ name: error.name, code: error.code, className: error.className, message: error.message }).toEqual({
        name,
        code,
        className,
        message: 'boom',
      });
      expect(Class.name).toBe(name);
      expect(error.type).toBe('ServiceError');
    });

    it('serializes to the wire shape without a stack', () => {
      const error = new Class('boom', { field: 1 });
      expect(error.stack).toEqual(expect.any(String));
      expect(error.toJSON()).toEqual({ name, message: 'boom', code, className, data: { field: 1 } });
      expect(JSON.parse(JSON.stringify(error))).toEqual({ name, message: 'boom', code, className, data: { field: 1 } });
      expect(JSON.stringify(error)).not.toContain('stack');
    });

    it('is found by its code', () => {
      expect(errorClassForCode(code)).toBe(Class);
    });
  });

  it('every class is its own nameable type, and instanceof tells them apart', () => {
    const notFound: errors.NotFound = new errors.NotFound('gone');
    const caught: unknown = notFound;
    expect(caught instanceof errors.NotFound).toBe(true);
    expect(caught instanceof errors.BadRequest).toBe(false);
    if (caught instanceof errors.NotFound) {
      // Narrowed to NotFound, whose code is the literal 404.
      const code: 404 = caught.code;
      expect(code).toBe(404);
    }
    // @ts-expect-error a BadRequest is not a NotFound, also for the type checker
    const wrong: errors.NotFound = new errors.BadRequest();
    expect(wrong).not.toBeInstanceOf(errors.NotFound);
  });

  it('no class exists for an unknown code', () => {
    expect(errorClassForCode(418)).toBeUndefined();
  });
});

describe('error constructor forms', () => {
  const { BadRequest } = errors;

  it('() gives the message "Error" and neither data nor errors', () => {
    const error = new BadRequest();
    expect(error.message).toBe('Error');
    expect(error.toJSON()).toEqual({ name: 'BadRequest', message: 'Error', code: 400, className: 'bad-request' });
  });

  it('(string) sets the message', () => {
    expect(new BadRequest('bad').message).toBe('bad');
  });

  it('(string, object) keeps the object as data, lifting errors out', () => {
    const error = new BadRequest('bad', { field: 'x', errors: { email: 'taken' } });
    expect(error.data).toEqual({ field: 'x' });
    expect(error.errors).toEqual({ email: 'taken' });
    expect(error.toJSON()).toEqual({
      name: 'BadRequest',
      message: 'bad',
      code: 400,
      className: 'bad-request',
      data: { field: 'x' },
      errors: { email: 'taken' },
    });
  });

  it('(string, object with a message) takes that message', () => {
    const error = new BadRequest('outer', { message: 'inner', extra: true });
    expect(error.message).toBe('inner');
    expect(error.data).toEqual({ extra: true });
  });

  it('(string, {}) keeps an empty data object', () => {
    expect(new BadRequest('bad', {}).data).toEqual({});
  });

  it('(string, array) keeps the array as data', () => {
    expect(new BadRequest('bad', [1, 2]).data).toEqual([1, 2]);
  });

  it('(object) takes message, errors and the rest as data', () => {
    const error = new BadRequest({ message: 'from object', errors: ['e'], field: 1 });
    expect(error.message).toBe('from object');
    expect(error.errors).toEqual(['e']);
    expect(error.data).toEqual({ field: 1 });
  });

  it('(Error) takes the message and never copies the stack', () => {
    const cause = new TypeError('broken');
    const error = new errors.GeneralError(cause);
    expect(error.message).toBe('broken');
    expect(error.data).toBeUndefined();
    expect(JSON.stringify(error)).not.toContain('TypeError');
  });

  it('(null) and (string, null) are accepted, unlike Feathers', () => {
    expect(new BadRequest(null).message).toBe('Error');
    const error = new BadRequest('bad', null);
    expect(error.message).toBe('bad');
    expect(error.data).toBeUndefined();
  });

  it('a non-string message becomes "Error"', () => {
    expect(new BadRequest(42).message).toBe('Error');
  });
});
