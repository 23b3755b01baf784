import { ServiceError } from './service-error';

/** What `convert()` and the code table need of a class: `new cls(message, data)`. */
type ErrorClass = new (message?: unknown, data?: unknown) => ServiceError;

// One class per status. Each narrows `code` to its literal, so the classes are distinct types
// (a `BadRequest` is not assignable to a `NotFound`), and `instanceof` works on every one.

export class BadRequest extends ServiceError {
  declare readonly code: 400;
  constructor(message?: unknown, data?: unknown) {
    super('BadRequest', 400, 'bad-request', message, data);
  }
}

export class NotAuthenticated extends ServiceError {
  declare readonly code: 401;
  constructor(message?: unknown, data?: unknown) {
    super('NotAuthenticated', 401, 'not-authenticated', message, data);
  }
}

export class PaymentError extends ServiceError {
  declare readonly code: 402;
  constructor(message?: unknown, data?: unknown) {
    super('PaymentError', 402, 'payment-error', message, data);
  }
}

export class Forbidden extends ServiceError {
  declare readonly code: 403;
  constructor(message?: unknown, data?: unknown) {
    super('Forbidden', 403, 'forbidden', message, data);
  }
}

export class NotFound extends ServiceError {
  declare readonly code: 404;
  constructor(message?: unknown, data?: unknown) {
    super('NotFound', 404, 'not-found', message, data);
  }
}

export class MethodNotAllowed extends ServiceError {
  declare readonly code: 405;
  constructor(message?: unknown, data?: unknown) {
    super('MethodNotAllowed', 405, 'method-not-allowed', message, data);
  }
}

export class NotAcceptable extends ServiceError {
  declare readonly code: 406;
  constructor(message?: unknown, data?: unknown) {
    super('NotAcceptable', 406, 'not-acceptable', message, data);
  }
}

export class Timeout extends ServiceError {
  declare readonly code: 408;
  constructor(message?: unknown, data?: unknown) {
    super('Timeout', 408, 'timeout', message, data);
  }
}

export class Conflict extends ServiceError {
  declare readonly code: 409;
  constructor(message?: unknown, data?: unknown) {
    super('Conflict', 409, 'conflict', message, data);
  }
}

export class Gone extends ServiceError {
  declare readonly code: 410;
  constructor(message?: unknown, data?: unknown) {
    super('Gone', 410, 'gone', message, data);
  }
}

export class LengthRequired extends ServiceError {
  declare readonly code: 411;
  constructor(message?: unknown, data?: unknown) {
    super('LengthRequired', 411, 'length-required', message, data);
  }
}

export class PayloadTooLarge extends ServiceError {
  declare readonly code: 413;
  constructor(message?: unknown, data?: unknown) {
    super('PayloadTooLarge', 413, 'payload-too-large', message, data);
  }
}

export class Unprocessable extends ServiceError {
  declare readonly code: 422;
  constructor(message?: unknown, data?: unknown) {
    super('Unprocessable', 422, 'unprocessable', message, data);
  }
}

export class TooManyRequests extends ServiceError {
  declare readonly code: 429;
  constructor(message?: unknown, data?: unknown) {
    super('TooManyRequests', 429, 'too-many-requests', message, data);
  }
}

export class GeneralError extends ServiceError {
  declare readonly code: 500;
  constructor(message?: unknown, data?: unknown) {
    super('GeneralError', 500, 'general-error', message, data);
  }
}

export class NotImplemented extends ServiceError {
  declare readonly code: 501;
  constructor(message?: unknown, data?: unknown) {
    super('NotImplemented', 501, 'not-implemented', message, data);
  }
}

export class BadGateway extends ServiceError {
  declare readonly code: 502;
  constructor(message?: unknown, data?: unknown) {
    super('BadGateway', 502, 'bad-gateway', message, data);
  }
}

export class Unavailable extends ServiceError {
  declare readonly code: 503;
  constructor(message?: unknown, data?: unknown) {
    super('Unavailable', 503, 'unavailable', message, data);
  }
}

/** Every class, by name; `convert()` and the HTTP adapter read this table. */
export const errorClasses: Readonly<Record<string, ErrorClass>> = Object.freeze({
  BadRequest,
  NotAuthenticated,
  PaymentError,
  Forbidden,
  NotFound,
  MethodNotAllowed,
  NotAcceptable,
  Timeout,
  Conflict,
  Gone,
  LengthRequired,
  PayloadTooLarge,
  Unprocessable,
  TooManyRequests,
  GeneralError,
  NotImplemented,
  BadGateway,
  Unavailable,
});

const classesByCode: ReadonlyMap<number, ErrorClass> = new Map(
  Object.values(errorClasses).map((cls) => [new cls().code, cls]),
);

/** The class for a status code, when there is one. */
export function errorClassForCode(code: number): ErrorClass | undefined {
  return classesByCode.get(code);
}
