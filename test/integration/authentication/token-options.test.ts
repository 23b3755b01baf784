import { generateKeyPairSync } from 'node:crypto';
import request from 'supertest';
import type { ComposedApplication } from '../../../src/composition-root';
import { claims, decodePart, forgeToken, givenAuthApp, logIn, signUp, TEST_SECRET, type Agent } from './auth-test-app';

const pem = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

describe('RS256 with a key pair', () => {
  const keyPair = pem();
  let composed: ComposedApplication;
  let agent: Agent;
  let token: string;
  let annId: string;

  beforeAll(async () => {
    composed = await givenAuthApp({ rateLimit: false, keyPair });
    agent = request(composed.http);
    annId = (await signUp(agent, 'ann@example.com'))._id;
    token = await logIn(agent, 'ann@example.com');
  });
  afterAll(() => composed.close());

  it('signs with RS256 and accepts its own tokens', async () => {
    expect(decodePart(token, 0)).toEqual({ alg: 'RS256', typ: 'access' });
    expect((await agent.get('/messages').set('Authorization', `Bearer ${token}`)).status).toBe(200);
  });

  it('refuses an HS256 token signed with the public key as HMAC secret (key confusion)', async () => {
    const confused = forgeToken({ alg: 'HS256', typ: 'access' }, claims(), { hmac: keyPair.publicKey });
    const response = await agent.get('/messages').set('Authorization', `Bearer ${confused}`);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({
      name: 'NotAuthenticated',
      message: 'invalid algorithm',
      data: { name: 'JsonWebTokenError' },
    });
  });

  it('refuses an RS256 token of another key and alg none', async () => {
    const stranger = forgeToken({ alg: 'RS256', typ: 'access' }, claims(), { rsaPrivateKey: pem().privateKey });
    const none = forgeToken({ alg: 'none', typ: 'access' }, claims());
    for (const bad of [stranger, none]) {
      const response = await agent.post('/authentication').send({ strategy: 'jwt', accessToken: bad });
      expect(response.status).toBe(401);
    }
  });

  it('accepts a hand-made RS256 token of the right key and claims (the checks are not over-strict)', async () => {
    // Of a session the server started (every access token must belong to one).
    const good = forgeToken({ alg: 'RS256', typ: 'access' }, claims({ sub: annId, sid: decodePart(token, 1).sid }), {
      rsaPrivateKey: keyPair.privateKey,
    });
    expect((await agent.get('/messages').set('Authorization', `Bearer ${good}`)).status).toBe(200);
  });

  it('refuses to start with an algorithm that does not fit the key', async () => {
    await expect(givenAuthApp({ keyPair, jwtOptions: { algorithm: 'HS256' } })).rejects.toThrow(
      'jwtOptions.algorithm HS256 does not fit a rsa key',
    );
    await expect(givenAuthApp({ jwtOptions: { algorithm: 'RS256' } })).rejects.toThrow(
      'jwtOptions.algorithm RS256 does not fit a shared secret',
    );
  });
});

describe('partial jwtOptions', () => {
  it('are merged with the defaults: expiresIn alone keeps typ, aud and iss', async () => {
    const composed = await givenAuthApp({ rateLimit: false, jwtOptions: { expiresIn: '2h' } });
    try {
      const agent = request(composed.http);
      await signUp(agent, 'ann@example.com');
      const token = await logIn(agent, 'ann@example.com');
      expect(decodePart(token, 0)).toEqual({ alg: 'HS256', typ: 'access' });
      const payload = decodePart(token, 1);
      expect(payload.exp - payload.iat).toBe(7200);
      expect(payload).toMatchObject({
        aud: 'hexa-services',
        iss: 'hexa-services',
        sub: expect.stringMatching(/^[0-9a-f]{24}$/),
      });
    } finally {
      await composed.close();
    }
  });

  it('pin a configured audience and issuer on verification', async () => {
    const composed = await givenAuthApp({
      rateLimit: false,
      jwtOptions: { audience: 'https://api.example.com', issuer: 'example' },
    });
    try {
      const agent = request(composed.http);
      await signUp(agent, 'ann@example.com');
      const token = await logIn(agent, 'ann@example.com');
      expect(decodePart(token, 1)).toMatchObject({ aud: 'https://api.example.com', iss: 'example' });
      expect((await agent.get('/messages').set('Authorization', `Bearer ${token}`)).status).toBe(200);
      // A token with the default claims (as another app with the same secret would make) is refused.
      const foreign = forgeToken({ alg: 'HS256', typ: 'access' }, claims(), { hmac: TEST_SECRET });
      const response = await agent.get('/messages').set('Authorization', `Bearer ${foreign}`);
      expect(response.status).toBe(401);
      expect(response.body.message).toBe('jwt audience invalid. expected: https://api.example.com');
    } finally {
      await composed.close();
    }
  });
});

describe('JWT_AUDIENCE and JWT_ISSUER', () => {
  it('are written into tokens and required on verification', async () => {
    const composed = await givenAuthApp(
      { rateLimit: false },
      { JWT_AUDIENCE: 'https://api.example.com', JWT_ISSUER: 'example-auth' },
    );
    try {
      const agent = request(composed.http);
      const user = await signUp(agent, 'ann@example.com');
      const token = await logIn(agent, 'ann@example.com');
      expect(decodePart(token, 1)).toMatchObject({ aud: 'https://api.example.com', iss: 'example-auth' });
      expect((await agent.get('/messages').set('Authorization', `Bearer ${token}`)).status).toBe(200);
      const defaults = forgeToken({ alg: 'HS256', typ: 'access' }, claims({ sub: user._id }), { hmac: TEST_SECRET });
      expect((await agent.get('/messages').set('Authorization', `Bearer ${defaults}`)).body).toMatchObject({
        code: 401,
        message: 'jwt audience invalid. expected: https://api.example.com',
      });
    } finally {
      await composed.close();
    }
  });
});
