import * as errors from '../../../../src/domain/errors';
import { convert, errorClasses, isServiceError, ServiceError } from '../../../../src/domain/errors';

describe('convert', () => {
  it.each(Object.entries(errorClasses))('revives %s from its JSON, by name', (name, Class) => {
    const json = JSON.parse(JSON.stringify(new Class('remote', { a: 1, errors: { b: 2 } })));
    const error = convert(json);
    expect(error).toBeInstanceOf(Class);
    expect((error as ServiceError).toJSON()).toEqual(json);
    expect(error.name).toBe(name);
  });

  it.each(Object.entries(errorClasses))('revives %s from its code alone', (name, Class) => {
    const code = new Class().code;
    const error = convert({ code, message: 'only a code' });
    expect(error).toBeInstanceOf(Class);
    expect(error.name).toBe(name);
    expect(error.message).toBe('only a code');
  });

  it('revives Gone by name (Feathers cannot)', () => {
    const error = convert({ name: 'Gone', message: 'gone for good', code: 410, className: 'gone' });
    expect(error).toBeInstanceOf(errors.Gone);
    expect((error as ServiceError).code).toBe(410);
  });

  it('prefers the name over the code', () => {
    expect(convert({ name: 'NotFound', code: 500, message: 'x' })).toBeInstanceOf(errors.NotFound);
  });

  it('keeps data and errors', () => {
    const error = convert({
      name: 'BadRequest',
      message: 'x',
      data: { field: 'email' },
      errors: [{ path: 'email' }],
    }) as ServiceError;
    expect(error.data).toEqual({ field: 'email' });
    expect(error.errors).toEqual([{ path: 'email' }]);
  });

  it('turns an unknown 5xx into a GeneralError', () => {
    const error = convert({ name: 'Weird', code: 599, message: 'odd' });
    expect(error).toBeInstanceOf(errors.GeneralError);
    expect(error.message).toBe('odd');
  });

  it('turns anything else into a plain Error with the message', () => {
    const unknown = convert({ name: 'Weird', code: 418, message: 'teapot' });
    expect(unknown).not.toBeInstanceOf(ServiceError);
    expect(unknown.message).toBe('teapot');
    expect(convert('text').message).toBe('text');
    expect(convert(null)).toBeInstanceOf(Error);
    expect(convert(42).message).toBe('Error');
  });

  it('never looks names up on the prototype chain', () => {
    const error = convert({ name: 'constructor', message: 'x' });
    expect(error).not.toBeInstanceOf(ServiceError);
    expect(error.message).toBe('x');
  });

  it('returns Error instances unchanged', () => {
    const original = new errors.Conflict('dup');
    expect(convert(original)).toBe(original);
  });
});

describe('isServiceError', () => {
  it('is true for service errors and their JSON-like look-alikes only', () => {
    expect(isServiceError(new errors.NotFound())).toBe(true);
    expect(isServiceError({ type: 'ServiceError' })).toBe(true);
    expect(isServiceError(new Error('plain'))).toBe(false);
    expect(isServiceError(null)).toBe(false);
  });
});
