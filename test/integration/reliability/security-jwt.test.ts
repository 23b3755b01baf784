import { claims, decodePart, forgeToken } from '../authentication/auth-test-app';
import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { startApp, TEST_SECRET, type RunningApp } from '../../helpers/app-server';
import { call, isErrorBody } from '../../helpers/http';

/**
 * JWT attacks against the real application: every forged, altered, expired or foreign token is
 * a 401 on a protected service and on `POST /authentication` (strategy jwt), and reveals nothing.
 */
describe('security: JWT attacks', () => {
  let app: RunningApp;
  let alice: Account;
  let sub: string;

  beforeAll(async () => {
    app = await startApp({ STORE: 'memory' });
    alice = await signUpAndLogIn(app.url);
    sub = decodePart(alice.token, 1).sub;
  }, 60_000);
  afterAll(() => app?.close());

  const header = { alg: 'HS256', typ: 'access' };
  const forged: Array<[string, () => string]> = [
    ['alg none, no signature', () => forgeToken({ alg: 'none', typ: 'access' }, claims({ sub }))],
    [
      'alg none with the real signature',
      () => `${forgeToken({ alg: 'none', typ: 'access' }, claims({ sub })).slice(0, -1)}.${alice.token.split('.')[2]}`,
    ],
    ['alg None (case)', () => forgeToken({ alg: 'None', typ: 'access' }, claims({ sub }))],
    [
      'a payload changed after signing',
      () => {
        const [head, , signature] = alice.token.split('.');
        const payload = Buffer.from(JSON.stringify({ ...decodePart(alice.token, 1), sub: 'someone-else' })).toString(
          'base64url',
        );
        return `${head}.${payload}.${signature}`;
      },
    ],
    [
      'a flipped signature byte',
      () => {
        const signature = Buffer.from(alice.token.split('.')[2], 'base64url');
        signature[0] ^= 0xff;
        return `${alice.token.split('.').slice(0, 2).join('.')}.${signature.toString('base64url')}`;
      },
    ],
    ['expired', () => forgeToken(header, claims({ sub, iat: 1_000, exp: 2_000 }), { hmac: TEST_SECRET })],
    [
      'not valid yet',
      () => forgeToken(header, claims({ sub, nbf: Math.floor(Date.now() / 1000) + 3600 }), { hmac: TEST_SECRET }),
    ],
    ['no expiry', () => forgeToken(header, { ...claims({ sub }), exp: undefined }, { hmac: TEST_SECRET })],
    [
      'signed with another key',
      () => forgeToken(header, claims({ sub }), { hmac: 'another-secret-of-sufficient-length-0123456789' }),
    ],
    ['signed with an empty key', () => forgeToken(header, claims({ sub }), { hmac: '' })],
    [
      'another audience',
      () => forgeToken(header, claims({ sub, aud: 'https://elsewhere.example' }), { hmac: TEST_SECRET }),
    ],
    ['another issuer', () => forgeToken(header, claims({ sub, iss: 'attacker' }), { hmac: TEST_SECRET })],
    [
      'a refresh-type token',
      () => forgeToken({ alg: 'HS256', typ: 'refresh' }, claims({ sub }), { hmac: TEST_SECRET }),
    ],
    [
      'HS512 with the right secret (the algorithm is pinned)',
      () => forgeToken({ alg: 'HS512', typ: 'access' }, claims({ sub }), { hmac: TEST_SECRET }),
    ],
    ['an unknown subject', () => forgeToken(header, claims({ sub: 'no-such-user' }), { hmac: TEST_SECRET })],
    ['an operator as subject', () => forgeToken(header, claims({ sub: { $ne: null } }), { hmac: TEST_SECRET })],
    ['garbage', () => 'not.a.token'],
    ['a huge token', () => `${'a'.repeat(6000)}.${'b'.repeat(6000)}.c`],
  ];

  it.each(forged)('%s: 401 on a protected service and on jwt authentication', async (_label, make) => {
    const token = make();
    const protectedCall = await call(app.url, 'GET', '/messages', { token });
    expect(protectedCall.status).toBe(401);
    expect(isErrorBody(protectedCall.body, 401)).toBe(true);
    const reauth = await call(app.url, 'POST', '/authentication', { body: { strategy: 'jwt', accessToken: token } });
    expect(reauth.status).toBe(401);
    expect(reauth.body.accessToken).toBeUndefined();
    expect(reauth.text).not.toContain(TEST_SECRET);
  });

  it('the genuine token still works (the checks are not over-strict)', async () => {
    expect((await call(app.url, 'GET', '/messages', { token: alice.token })).status).toBe(200);
  });

  it.each([
    ['Basic scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', 'Bearer '],
    ['two tokens', () => `Bearer ${alice.token} ${alice.token}`],
  ])('an authorization header with %s is a 401', async (_label, value) => {
    const authorization = typeof value === 'function' ? value() : value;
    const response = await call(app.url, 'GET', '/messages', { headers: { authorization } });
    expect(response.status).toBe(401);
  });
});
