import { jsonContent, refTo, type OpenApiDocument, type ResponseObject } from './openapi-types';

export const BEARER_SCHEME = 'bearerAuth';
export const ERROR_SCHEMA = 'Error';

/** The error answers operations share, by component name. */
export const ERROR_RESPONSES = {
  BadRequest: { status: '400', description: 'Invalid data or query (`BadRequest`; per-field details in `errors`)' },
  NotAuthenticated: {
    status: '401',
    description: 'Missing, invalid or expired token, or wrong credentials (`NotAuthenticated`)',
  },
  NotFound: { status: '404', description: 'No such record, or one the caller may not see (`NotFound`)' },
  Conflict: {
    status: '409',
    description:
      'A unique field already has that value (`Conflict`, naming only the fields), or a request with the same ' +
      '`Idempotency-Key` is still running',
  },
  Unprocessable: {
    status: '422',
    description: 'This `Idempotency-Key` was used with another request (`Unprocessable`)',
  },
  TooManyRequests: {
    status: '429',
    description: 'Too many failed logins; `Retry-After` says when to try again (`TooManyRequests`)',
  },
  Error: {
    status: 'default',
    description:
      'Any other error, in the same shape (e.g. 413 `PayloadTooLarge`, 503 `Unavailable`, 500 `GeneralError`)',
  },
} as const;

export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

/** `{ status: $ref }` entries for the named error answers. */
export function errorResponses(...names: ErrorResponseName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [ERROR_RESPONSES[name].status, refTo('responses', name)]));
}

/** The components every document has: the error shape and its answers, and the bearer token scheme. */
export function sharedComponents(): Pick<OpenApiDocument['components'], 'schemas' | 'responses' | 'securitySchemes'> {
  const responses: Record<string, ResponseObject> = {};
  for (const [name, { description }] of Object.entries(ERROR_RESPONSES)) {
    responses[name] = { description, content: jsonContent(refTo('schemas', ERROR_SCHEMA)) };
  }
  responses.TooManyRequests.headers = {
    'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } },
  };
  return {
    schemas: {
      [ERROR_SCHEMA]: {
        type: 'object',
        description: 'Every error answer: the Feathers error shape, never a stack',
        required: ['name', 'message', 'code', 'className'],
        properties: {
          name: { type: 'string', examples: ['BadRequest'] },
          message: { type: 'string' },
          code: { type: 'integer', examples: [400] },
          className: { type: 'string', examples: ['bad-request'] },
          data: { description: 'Details, when the error has any' },
          errors: { description: 'Per-field validation errors, when there are any' },
        },
      },
    },
    responses,
    securitySchemes: {
      [BEARER_SCHEME]: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'The `accessToken` of `POST /authentication`',
      },
    },
  };
}
