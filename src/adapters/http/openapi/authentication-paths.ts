import { USER_IDENTITY } from '../../../application/services/users/user-identity';
import { jsonContent, refTo, type JsonSchema, type OpenApiDocument, type PathItemObject } from './openapi-types';
import { BEARER_SCHEME, errorResponses } from './shared-components';

export const AUTHENTICATION_TAG = 'authentication';

/**
 * `POST /authentication` (log in: `local` with email and password, `jwt` with a token, or
 * `refresh` with a refresh token) and `DELETE /authentication` (log out: end the bearer token's
 * session), answering `{ accessToken, refreshToken, authentication, user }` with the user as the
 * users service shows it.
 */
export function authenticationPaths(
  user: JsonSchema,
  components: OpenApiDocument['components'],
): Record<string, PathItemObject> {
  const { loginField, passwordField } = USER_IDENTITY;
  components.schemas.LocalLogin = {
    type: 'object',
    required: ['strategy', loginField, passwordField],
    properties: { strategy: { const: 'local' }, [loginField]: { type: 'string' }, [passwordField]: { type: 'string' } },
    examples: [{ strategy: 'local', [loginField]: 'ada@example.com', [passwordField]: 'correct horse' }],
  };
  components.schemas.JwtLogin = {
    type: 'object',
    required: ['strategy', 'accessToken'],
    properties: { strategy: { const: 'jwt' }, accessToken: { type: 'string' } },
  };
  components.schemas.RefreshLogin = {
    type: 'object',
    required: ['strategy', 'refreshToken'],
    properties: {
      strategy: { const: 'refresh' },
      refreshToken: { type: 'string', description: 'Spent by this use: the answer carries the next one' },
    },
  };
  components.schemas.AuthenticationResult = {
    type: 'object',
    required: ['accessToken', 'authentication', 'user'],
    properties: {
      accessToken: { type: 'string', description: 'Send it as `Authorization: Bearer <accessToken>`' },
      refreshToken: {
        type: 'string',
        description:
          'A login or refresh: exchange it for new tokens of the same session before the access token expires',
      },
      authentication: {
        type: 'object',
        required: ['strategy'],
        properties: {
          strategy: { type: 'string' },
          accessToken: { type: 'string' },
          payload: { type: 'object', description: 'The decoded token' },
        },
      },
      user,
    },
  };
  components.schemas.PasswordResetRequest = {
    type: 'object',
    required: [loginField],
    properties: { [loginField]: { type: 'string' } },
  };
  components.schemas.PasswordResetUse = {
    type: 'object',
    required: ['token', passwordField],
    properties: {
      token: { type: 'string', description: 'From the link in the mail (after `#token=`)' },
      [passwordField]: { type: 'string' },
    },
  };
  const result = jsonContent(refTo('schemas', 'AuthenticationResult'));
  return {
    '/authentication': {
      post: {
        operationId: 'authentication.create',
        summary: 'Log in, or refresh',
        description:
          'A login starts a session and returns an access token and a refresh token; a refresh returns new ones of ' +
          'the same session (a refresh token used twice ends the session). Failed logins are limited per email and ' +
          'per client (then 429 with `Retry-After`).',
        tags: [AUTHENTICATION_TAG],
        requestBody: {
          required: true,
          content: jsonContent({
            oneOf: [refTo('schemas', 'LocalLogin'), refTo('schemas', 'JwtLogin'), refTo('schemas', 'RefreshLogin')],
          }),
        },
        responses: {
          '201': { description: 'Logged in', content: result },
          ...errorResponses('BadRequest', 'NotAuthenticated', 'TooManyRequests', 'Error'),
        },
      },
      delete: {
        operationId: 'authentication.remove',
        summary: "Log out: end the bearer token's session (`?all=true`: every session of its user)",
        tags: [AUTHENTICATION_TAG],
        parameters: [{ name: 'all', in: 'query', required: false, schema: { type: 'boolean' } }],
        responses: {
          '200': { description: 'The session has ended', content: result },
          ...errorResponses('NotAuthenticated', 'Error'),
        },
        security: [{ [BEARER_SCHEME]: [] }],
      },
    },
    '/password-resets': {
      post: {
        operationId: 'password-resets.create',
        summary: 'Ask for a password reset link by e-mail, or use one',
        description:
          'With an e-mail address: the same answer whether or not it has an account; limited per client and per ' +
          'address (then 429 with `Retry-After`). With the token of the link (single use, one hour) and a new ' +
          'password: sets it and ends every session of the account.',
        tags: [AUTHENTICATION_TAG],
        requestBody: {
          required: true,
          content: jsonContent({
            oneOf: [refTo('schemas', 'PasswordResetRequest'), refTo('schemas', 'PasswordResetUse')],
          }),
        },
        responses: {
          '201': {
            description: 'Asked for, or done',
            content: jsonContent({
              type: 'object',
              required: ['message'],
              properties: { message: { type: 'string' } },
            }),
          },
          ...errorResponses('BadRequest', 'TooManyRequests', 'Error'),
        },
      },
    },
  };
}
