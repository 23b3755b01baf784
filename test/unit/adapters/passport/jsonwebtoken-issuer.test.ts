import { createHmac, generateKeyPairSync } from 'node:crypto';
import { JsonWebTokenIssuer } from '../../../../src/adapters/passport/jsonwebtoken-issuer';
import { createJwtSettings } from '../../../../src/adapters/passport/jwt-settings';

const SECRET = 'k'.repeat(40);
const issuer = new JsonWebTokenIssuer(createJwtSettings({ secret: SECRET }));
const part = (token: string, index: number) => JSON.parse(Buffer.from(token.split('.')[index], 'base64url').toString());
const hs256 = (header: object, payload: object, key: string | Buffer = SECRET) => {
  const input =
    `${Buffer.from(JSON.stringify(header)).toString('base64url')}.` +
    `${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
};
const now = () => Math.floor(Date.now() / 1000);
const valid = () => ({ sub: '1', iat: now(), exp: now() + 60, aud: 'hexa-services', iss: 'hexa-services' });

describe('JsonWebTokenIssuer', () => {
  it('signs with typ access and every registered claim', async () => {
    const token = await issuer.sign('42');
    expect(part(token, 0)).toEqual({ alg: 'HS256', typ: 'access' });
    const payload = part(token, 1);
    expect(payload).toEqual({
      iat: expect.any(Number),
      exp: payload.iat + 900,
      aud: 'hexa-services',
      iss: 'hexa-services',
      sub: '42',
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(await issuer.verify(token)).toEqual(payload);
    expect(part(await issuer.sign('42'), 1).jti).not.toBe(payload.jti);
  });

  it('adds custom claims but never lets them replace registered ones', async () => {
    const token = await issuer.sign('42', {
      role: 'admin',
      sub: '0',
      exp: 9_999_999_999,
      aud: 'x',
      iss: 'y',
      jti: 'z',
    });
    expect(part(token, 1)).toMatchObject({ role: 'admin', sub: '42', aud: 'hexa-services', iss: 'hexa-services' });
    expect(part(token, 1).exp).toBeLessThan(9_999_999_999);
    expect(part(token, 1).jti).not.toBe('z');
  });

  it('verifies a hand-made token with the right claims', async () => {
    await expect(issuer.verify(hs256({ alg: 'HS256', typ: 'access' }, valid()))).resolves.toMatchObject({ sub: '1' });
  });

  it.each([
    ['empty', () => '', 'No access token', undefined],
    ['malformed', () => 'abc', 'jwt malformed', 'JsonWebTokenError'],
    [
      'alg none',
      () => `${hs256({ alg: 'none', typ: 'access' }, valid()).split('.').slice(0, 2).join('.')}.`,
      'jwt signature is required',
      'JsonWebTokenError',
    ],
    [
      'wrong secret',
      () => hs256({ alg: 'HS256', typ: 'access' }, valid(), 'x'.repeat(40)),
      'invalid signature',
      'JsonWebTokenError',
    ],
    [
      'wrong audience',
      () => hs256({ alg: 'HS256', typ: 'access' }, { ...valid(), aud: 'other' }),
      'jwt audience invalid. expected: hexa-services',
      'JsonWebTokenError',
    ],
    [
      'no audience',
      () => hs256({ alg: 'HS256', typ: 'access' }, { ...valid(), aud: undefined }),
      'jwt audience invalid. expected: hexa-services',
      'JsonWebTokenError',
    ],
    [
      'wrong issuer',
      () => hs256({ alg: 'HS256', typ: 'access' }, { ...valid(), iss: 'other' }),
      'jwt issuer invalid. expected: hexa-services',
      'JsonWebTokenError',
    ],
    ['wrong typ', () => hs256({ alg: 'HS256', typ: 'refresh' }, valid()), 'invalid token type', 'JsonWebTokenError'],
    [
      'no exp',
      () => hs256({ alg: 'HS256', typ: 'access' }, { ...valid(), exp: undefined }),
      'jwt expiry missing',
      'JsonWebTokenError',
    ],
    [
      'not yet valid',
      () => hs256({ alg: 'HS256', typ: 'access' }, { ...valid(), nbf: now() + 600 }),
      'jwt not active',
      'NotBeforeError',
    ],
  ])('refuses a token that is %s', async (_case, token, message, name) => {
    const rejection = expect(issuer.verify(token())).rejects;
    await rejection.toMatchObject({ name: 'NotAuthenticated', code: 401, message });
    if (name) await expect(issuer.verify(token())).rejects.toMatchObject({ data: expect.objectContaining({ name }) });
  });

  it('marks an expired token with TokenExpiredError and expiredAt', async () => {
    const exp = now() - 10;
    await expect(issuer.verify(hs256({ alg: 'HS256', typ: 'access' }, { ...valid(), exp }))).rejects.toMatchObject({
      message: 'jwt expired',
      data: { name: 'TokenExpiredError', expiredAt: new Date(exp * 1000).toISOString() },
    });
  });

  it('with RS256 refuses an HS256 token keyed with the public key', async () => {
    const keys = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const rs = new JsonWebTokenIssuer(
      createJwtSettings({ privateKey: keys.privateKey, publicKey: keys.publicKey }, { algorithm: 'RS256' }),
    );
    const token = await rs.sign('1');
    expect(part(token, 0).alg).toBe('RS256');
    await expect(rs.verify(token)).resolves.toMatchObject({ sub: '1' });
    await expect(rs.verify(hs256({ alg: 'HS256', typ: 'access' }, valid(), keys.publicKey))).rejects.toMatchObject({
      code: 401,
      message: 'invalid algorithm',
    });
  });
});
