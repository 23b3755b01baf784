import { generateKeyPairSync } from 'node:crypto';
import {
  checkAccessToken,
  createJwtSettings,
  DEFAULT_JWT_OPTIONS,
} from '../../../../src/adapters/passport/jwt-settings';

const SECRET = { secret: 'k'.repeat(32) };
const rsa = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const ec = generateKeyPairSync('ec', {
  namedCurve: 'P-256',
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

describe('createJwtSettings', () => {
  it('uses the Feathers defaults', () => {
    const settings = createJwtSettings(SECRET);
    expect(settings.options).toEqual({
      algorithm: 'HS256',
      expiresIn: '15m',
      audience: 'hexa-services',
      issuer: 'hexa-services',
      header: { typ: 'access' },
    });
    expect(settings.algorithms).toEqual(['HS256']);
    expect(settings.signingKey.type).toBe('secret');
  });

  it('merges partial options instead of replacing the defaults (undefined keeps the default)', () => {
    const settings = createJwtSettings(SECRET, { expiresIn: '2h', issuer: undefined, header: {} as never });
    expect(settings.options).toEqual({ ...DEFAULT_JWT_OPTIONS, expiresIn: '2h', header: { typ: 'access' } });
  });

  it('pins the algorithm family to the key type', () => {
    expect(
      createJwtSettings({ privateKey: rsa.privateKey, publicKey: rsa.publicKey }, { algorithm: 'RS256' }).algorithms,
    ).toEqual(['RS256']);
    expect(
      createJwtSettings({ privateKey: rsa.privateKey, publicKey: rsa.publicKey }, { algorithm: 'PS384' }).algorithms,
    ).toEqual(['PS384']);
    expect(
      createJwtSettings({ privateKey: ec.privateKey, publicKey: ec.publicKey }, { algorithm: 'ES256' }).verificationKey
        .asymmetricKeyType,
    ).toBe('ec');
    expect(() => createJwtSettings(SECRET, { algorithm: 'RS256' })).toThrow('does not fit a shared secret');
    expect(() => createJwtSettings({ privateKey: rsa.privateKey, publicKey: rsa.publicKey })).toThrow(
      'HS256 does not fit a rsa key',
    );
    expect(() =>
      createJwtSettings({ privateKey: ec.privateKey, publicKey: ec.publicKey }, { algorithm: 'RS256' }),
    ).toThrow('does not fit a ec key');
    expect(() => createJwtSettings(SECRET, { algorithm: 'none' })).toThrow('does not fit');
  });
});

describe('checkAccessToken', () => {
  const settings = createJwtSettings(SECRET);
  const payload = { sub: '1', exp: 2, iat: 1 };

  it('accepts an access token and returns its payload', () => {
    expect(checkAccessToken({ header: { alg: 'HS256', typ: 'access' }, payload, signature: '' }, settings)).toBe(
      payload,
    );
  });

  it.each([
    [{ alg: 'HS256', typ: 'refresh' }, payload, 'invalid token type'],
    [{ alg: 'HS256' }, payload, 'invalid token type'],
    [{ alg: 'HS256', typ: 'access' }, 'a string payload', 'jwt payload must be an object'],
    [{ alg: 'HS256', typ: 'access' }, { sub: '1' }, 'jwt expiry missing'],
    [{ alg: 'HS256', typ: 'access' }, { exp: 2 }, 'jwt subject missing'],
    [{ alg: 'HS256', typ: 'access' }, { exp: 2, sub: 1 }, 'jwt subject missing'],
  ])('refuses header %j with payload %j: %s', (header, body, message) => {
    expect(() =>
      checkAccessToken({ header: header as never, payload: body as never, signature: '' }, settings),
    ).toThrow(expect.objectContaining({ name: 'NotAuthenticated', message, data: { name: 'JsonWebTokenError' } }));
  });
});
