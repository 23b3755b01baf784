import { USER_IDENTITY } from '../../../application/services/users/user-identity';
import { jsonContent, refTo, type JsonSchema, type OpenApiDocument, type PathItemObject } from './openapi-types';
import { BEARER_SCHEME, errorResponses } from './shared-components';

export const AUTHENTICATION_TAG = 'authentication';

/**
 * `POST /authentication` (log in: `local` with email and password, or `jwt` with a token) and
 * `DELETE /authentication` (check the bearer token), both answering
 * `{ accessToken, authentication, user }` with the user as the users service shows it.
 */
export function authenticationPaths(user: JsonSchema, components: OpenApiDocument['components']): Record<string, PathItemObject> {
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
  components.schemas.AuthenticationResult = {
    type: 'object',
    required: ['accessToken', 'authentication', 'user'],
    properties: {
      accessToken: { type: 'string', description: 'Send it as `Authorization: Bearer <accessToken>`' },
      authentication: {
        type: 'object',
        required: ['strategy'],
        properties: { strategy: { type: 'string' }, accessToken: { type: 'string' }, payload: { type: 'object', description: 'The decoded token' } },
      },
      user,
    },
  };
  const result = jsonContent(refTo('schemas', 'AuthenticationResult'));
  return {
    '/authentication': {
      post: {
        operationId: 'authentication.create',
        summary: 'Log in',
        description: 'Returns an access token. Failed logins are limited per email and per client (then 429 with `Retry-After`).',
        tags: [AUTHENTICATION_TAG],
        requestBody: { required: true, content: jsonContent({ oneOf: [refTo('schemas', 'LocalLogin'), refTo('schemas', 'JwtLogin')] }) },
        responses: { '201': { description: 'Logged in', content: result }, ...errorResponses('BadRequest', 'NotAuthenticated', 'TooManyRequests', 'Error') },
      },
      delete: {
        operationId: 'authentication.remove',
        summary: 'Check the bearer token (log out on the client by forgetting it)',
        tags: [AUTHENTICATION_TAG],
        responses: { '200': { description: 'The token is valid', content: result }, ...errorResponses('NotAuthenticated', 'Error') },
        security: [{ [BEARER_SCHEME]: [] }],
      },
    },
  };
}
