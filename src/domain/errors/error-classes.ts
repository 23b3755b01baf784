import { ServiceError } from './service-error';

type ErrorClass = new (message?: unknown, data?: unknown) => ServiceError;

function defineError(name: string, code: number, className: string): ErrorClass {
  const cls = class extends ServiceError {
    constructor(message?: unknown, data?: unknown) {
      super(name, code, className, message, data);
    }
  };
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

export const BadRequest = defineError('BadRequest', 400, 'bad-request');
export const NotAuthenticated = defineError('NotAuthenticated', 401, 'not-authenticated');
export const PaymentError = defineError('PaymentError', 402, 'payment-error');
export const Forbidden = defineError('Forbidden', 403, 'forbidden');
export const NotFound = defineError('NotFound', 404, 'not-found');
export const MethodNotAllowed = defineError('MethodNotAllowed', 405, 'method-not-allowed');
export const NotAcceptable = defineError('NotAcceptable', 406, 'not-acceptable');
export const Timeout = defineError('Timeout', 408, 'timeout');
export const Conflict = defineError('Conflict', 409, 'conflict');
export const Gone = defineError('Gone', 410, 'gone');
export const LengthRequired = defineError('LengthRequired', 411, 'length-required');
export const PayloadTooLarge = defineError('PayloadTooLarge', 413, 'payload-too-large');
export const Unprocessable = defineError('Unprocessable', 422, 'unprocessable');
export const TooManyRequests = defineError('TooManyRequests', 429, 'too-many-requests');
export const GeneralError = defineError('GeneralError', 500, 'general-error');
export const NotImplemented = defineError('NotImplemented', 501, 'not-implemented');
export const BadGateway = defineError('BadGateway', 502, 'bad-gateway');
export const Unavailable = defineError('Unavailable', 503, 'unavailable');

/** Every class, by name; `convert()` and the HTTP adapter read this table. */
export const errorClasses: Readonly<Record<string, ErrorClass>> = Object.freeze({
  BadRequest, NotAuthenticated, PaymentError, Forbidden, NotFound, MethodNotAllowed, NotAcceptable, Timeout,
  Conflict, Gone, LengthRequired, PayloadTooLarge, Unprocessable, TooManyRequests, GeneralError, NotImplemented,
  BadGateway, Unavailable,
});

const classesByCode: ReadonlyMap<number, ErrorClass> = new Map(Object.values(errorClasses).map((cls) => [new cls().code, cls]));

/** The class for a status code, when there is one. */
export function errorClassForCode(code: number): ErrorClass | undefined {
  return classesByCode.get(code);
}
