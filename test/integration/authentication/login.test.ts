import request from 'supertest';
import type { ComposedApplication } from '../../../src/composition-root';
import type { HookContext } from '../../../src/application/hooks/hook-context';
import { decodePart, givenAuthApp, logIn, PASSWORD, signUp, type Agent } from './auth-test-app';

describe('POST /authentication (local and jwt)', () => {
  let composed: ComposedApplication;
  let agent: Agent;
  let lookups: number;

  beforeAll(async () => {
    composed = await givenAuthApp({ rateLimit: false });
    agent = request(composed.http);
    await signUp(agent, 'ann@example.com');
    // Counts the users lookups the local strategy makes (internal finds).
    composed.app.service('users').hooks({
      before: {
        find: [
          (context: HookContext) => {
            if (!context.params.provider) lookups++;
          },
        ],
      },
    });
  });
  beforeEach(() => {
    lookups = 0;
  });
  afterAll(() => composed.close());

  it('logs in with email and password: 201 with token, payload and the user without its hash', async () => {
    const response = await agent
      .post('/authentication')
      .send({ strategy: 'local', email: 'ann@example.com', password: PASSWORD });
    expect(response.status).toBe(201);
    const { accessToken, authentication, user } = response.body;
    expect(Object.keys(response.body).sort()).toEqual(['accessToken', 'authentication', 'refreshToken', 'user']);
    expect(user).toEqual({ email: 'ann@example.com', _id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    expect(authentication.strategy).toBe('local');
    expect(decodePart(accessToken, 0)).toEqual({ alg: 'HS256', typ: 'access' });
    const payload = decodePart(accessToken, 1);
    expect(authentication.payload).toEqual(payload);
    expect(payload).toMatchObject({ aud: 'hexa-services', iss: 'hexa-services', sub: user._id });
    expect(payload.exp - payload.iat).toBe(15 * 60);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(lookups).toBe(1);
  });

  it('re-authenticates with a token and returns that same token, never a later expiry', async () => {
    const token = await logIn(agent, 'ann@example.com');
    const response = await agent.post('/authentication').send({ strategy: 'jwt', accessToken: token });
    expect(response.status).toBe(201);
    expect(response.body.accessToken).toBe(token);
    expect(response.body.authentication).toEqual({
      strategy: 'jwt',
      accessToken: token,
      payload: decodePart(token, 1),
    });
    expect(response.body.user).toEqual({ email: 'ann@example.com', _id: decodePart(token, 1).sub });
  });

  it('gives the same 401 body for an unknown user and a wrong password', async () => {
    const unknown = await agent
      .post('/authentication')
      .send({ strategy: 'local', email: 'nobody@example.com', password: PASSWORD });
    const wrong = await agent
      .post('/authentication')
      .send({ strategy: 'local', email: 'ann@example.com', password: 'wrong password' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual({
      name: 'NotAuthenticated',
      message: 'Invalid login',
      code: 401,
      className: 'not-authenticated',
    });
    expect(wrong.body).toEqual(unknown.body);
    const headerNames = (response: request.Response) =>
      Object.keys(response.headers)
        .filter((name) => !['date', 'x-request-id', 'etag'].includes(name))
        .sort();
    expect(headerNames(wrong)).toEqual(headerNames(unknown));
  });

  it.each([
    ['an operator object as email', { email: { $ne: null }, password: PASSWORD }],
    ['a range operator as email', { email: { $gt: '' }, password: PASSWORD }],
    ['an array as email', { email: ['ann@example.com'], password: PASSWORD }],
    ['an operator object as password', { email: 'ann@example.com', password: { $ne: null } }],
    ['an array as password', { email: 'ann@example.com', password: [PASSWORD] }],
    ['a number as password', { email: 'ann@example.com', password: 12345678 }],
    ['no email', { password: PASSWORD }],
    ['no password', { email: 'ann@example.com' }],
    ['empty strings', { email: '', password: '' }],
    ['an overlong email', { email: `${'a'.repeat(400)}@example.com`, password: PASSWORD }],
  ])('refuses %s with 401 Invalid login and no lookup', async (_case, fields) => {
    const response = await agent.post('/authentication').send({ strategy: 'local', ...fields });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ name: 'NotAuthenticated', message: 'Invalid login' });
    expect(lookups).toBe(0);
  });

  it.each([
    [
      'no strategy',
      { email: 'ann@example.com', password: PASSWORD },
      'Invalid authentication information (no `strategy` set)',
    ],
    ['a non-string strategy', { strategy: { $ne: null } }, 'Invalid authentication information (no `strategy` set)'],
    [
      'an unknown strategy',
      { strategy: 'api-key' },
      'Invalid authentication information (strategy not allowed in authStrategies)',
    ],
    ['a jwt request without a token', { strategy: 'jwt' }, 'No access token'],
    ['a jwt request with a non-string token', { strategy: 'jwt', accessToken: { $ne: null } }, 'No access token'],
    ['a garbage token', { strategy: 'jwt', accessToken: 'garbage' }, 'jwt malformed'],
  ])('refuses %s with 401', async (_case, body, message) => {
    const response = await agent.post('/authentication').send(body);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ name: 'NotAuthenticated', message });
  });

  it('never publishes an event carrying a token', async () => {
    const events: unknown[] = [];
    const service = composed.app.service('authentication');
    service.on('created', (item: unknown) => events.push(item));
    await logIn(agent, 'ann@example.com');
    expect(events).toEqual([]);
  });
});

describe('DELETE /authentication (logout)', () => {
  let composed: ComposedApplication;
  let agent: Agent;
  let token: string;

  beforeAll(async () => {
    composed = await givenAuthApp({ rateLimit: false });
    agent = request(composed.http);
    await signUp(agent, 'bob@example.com');
    token = await logIn(agent, 'bob@example.com');
  });
  afterAll(() => composed.close());

  it('returns 200 with the jwt result for a valid bearer token, which is refused from then on', async () => {
    const response = await agent.delete('/authentication').set('Authorization', `Bearer ${token}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      accessToken: token,
      authentication: { strategy: 'jwt', accessToken: token, payload: decodePart(token, 1) },
      user: { email: 'bob@example.com', _id: decodePart(token, 1).sub },
    });
    const again = await agent.delete('/authentication').set('Authorization', `Bearer ${token}`);
    expect(again.status).toBe(401);
    expect(again.body.data).toEqual({ reason: 'revoked' });
  });

  it('accepts the same token as id and refuses another one', async () => {
    const fresh = await logIn(agent, 'bob@example.com');
    const other = await agent.delete('/authentication/some-other-token').set('Authorization', `Bearer ${fresh}`);
    expect(other.status).toBe(401);
    expect(other.body.message).toBe('Invalid access token');
    const same = await agent.delete(`/authentication/${fresh}`).set('Authorization', `Bearer ${fresh}`);
    expect(same.status).toBe(200);
  });

  it('answers 401, not 500, without a header (with and without id)', async () => {
    const collection = await agent.delete('/authentication');
    const item = await agent.delete('/authentication/anything');
    for (const response of [collection, item]) {
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({
        name: 'NotAuthenticated',
        message: 'Invalid authentication information (no `strategy` set)',
      });
    }
  });

  it('answers 401 for an invalid bearer token', async () => {
    const response = await agent.delete('/authentication').set('Authorization', 'Bearer garbage');
    expect(response.status).toBe(401);
    expect(response.body.message).toBe('jwt malformed');
  });
});
