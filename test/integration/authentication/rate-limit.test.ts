import request from 'supertest';
import type { ComposedApplication } from '../../../src/composition-root';
import { givenAuthApp, PASSWORD, signUp, type Agent } from './auth-test-app';

const login = (agent: Agent, email: unknown, password = 'wrong password') =>
  agent.post('/authentication').send({ strategy: 'local', email, password });

describe('brute-force limits of POST /authentication', () => {
  describe('per email', () => {
    let composed: ComposedApplication;
    let agent: Agent;

    beforeAll(async () => {
      composed = await givenAuthApp({
        rateLimit: { maxFailuresPerEmail: 3, maxFailuresPerClient: 1000, windowMs: 60_000 },
      });
      agent = request(composed.http);
      await signUp(agent, 'ann@example.com');
      await signUp(agent, 'bob@example.com');
    });
    afterAll(() => composed.close());

    it('answers 429 TooManyRequests after the allowed failures, even for the right password', async () => {
      for (let attempt = 0; attempt < 3; attempt++) expect((await login(agent, 'ann@example.com')).status).toBe(401);
      const limited = await login(agent, 'ann@example.com');
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({
        name: 'TooManyRequests',
        code: 429,
        message: 'Too many failed login attempts, try again later',
      });
      expect(limited.body.data.retryAfter).toBeGreaterThan(0);
      expect(limited.body.data.retryAfter).toBeLessThanOrEqual(60);
      // Case and spaces do not make a new key.
      expect((await login(agent, '  ANN@example.com ', PASSWORD)).status).toBe(429);
      expect((await login(agent, 'ann@example.com', PASSWORD)).status).toBe(429);
      // Another account is not affected.
      expect((await login(agent, 'bob@example.com', PASSWORD)).status).toBe(201);
    });

    it('sends Retry-After with the 429 (needs the HTTP adapter to map error data.retryAfter)', async () => {
      const limited = await login(agent, 'ann@example.com');
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe(String(limited.body.data.retryAfter));
    });

    it('counts failures for unknown emails too, so probing costs the same', async () => {
      for (let attempt = 0; attempt < 3; attempt++) expect((await login(agent, 'ghost@example.com')).status).toBe(401);
      expect((await login(agent, 'ghost@example.com')).status).toBe(429);
    });
  });

  describe('per client', () => {
    let composed: ComposedApplication;
    let agent: Agent;

    beforeAll(async () => {
      composed = await givenAuthApp({
        rateLimit: { maxFailuresPerEmail: 1000, maxFailuresPerClient: 4, windowMs: 60_000 },
      });
      agent = request(composed.http);
      await signUp(agent, 'ann@example.com');
    });
    afterAll(() => composed.close());

    it(
      'limits one client spraying many emails, also with hostile ' + 'bodies (needs params.ip from the HTTP adapter)',
      async () => {
        expect((await login(agent, { $ne: null })).status).toBe(401);
        expect((await login(agent, ['a@example.com'])).status).toBe(401);
        for (let attempt = 0; attempt < 2; attempt++)
          expect((await login(agent, `user${attempt}@example.com`)).status).toBe(401);
        const limited = await login(agent, 'ann@example.com', PASSWORD);
        expect(limited.status).toBe(429);
        expect(limited.headers['retry-after']).toBeDefined();
      },
    );
  });

  it('keeps clients apart and lets a success clear its email count (internal calls with params.ip)', async () => {
    const composed = await givenAuthApp({
      rateLimit: { maxFailuresPerEmail: 2, maxFailuresPerClient: 2, windowMs: 60_000 },
    });
    try {
      await signUp(request(composed.http), 'ann@example.com');
      const authentication = composed.app.service('authentication');
      const attempt = (ip: string, email: string, password = 'wrong password') =>
        authentication.create({ strategy: 'local', email, password }, { provider: 'rest', ip }).then(
          () => 'ok',
          (error: { code: number }) => error.code,
        );
      expect(await attempt('10.0.0.1', 'x@example.com')).toBe(401);
      expect(await attempt('10.0.0.1', 'y@example.com')).toBe(401);
      expect(await attempt('10.0.0.1', 'ann@example.com', PASSWORD)).toBe(429);
      expect(await attempt('10.0.0.2', 'ann@example.com')).toBe(401);
      expect(await attempt('10.0.0.2', 'ann@example.com', PASSWORD)).toBe('ok');
      // The success cleared ann's count: another client may fail once more without a 429.
      expect(await attempt('10.0.0.3', 'ann@example.com')).toBe(401);
      expect(await attempt('10.0.0.3', 'ann@example.com', PASSWORD)).toBe('ok');
    } finally {
      await composed.close();
    }
  });

  it(
    "never lets an attacker's failures lock the owner out from another " +
      'address, and slows the attacker more with each failure',
    async () => {
      const composed = await givenAuthApp({
        rateLimit: { maxFailuresPerEmail: 3, maxFailuresPerClient: 50, windowMs: 60_000 },
      });
      try {
        await signUp(request(composed.http), 'owner@example.com');
        const authentication = composed.app.service('authentication');
        const attempt = (ip: string, password = 'wrong password') =>
          authentication
            .create({ strategy: 'local', email: 'owner@example.com', password }, { provider: 'rest', ip })
            .then(
              () => ({ code: 201, retryAfter: 0 }),
              (error: { code: number; data?: { retryAfter?: number } }) => ({
                code: error.code,
                retryAfter: error.data?.retryAfter ?? 0,
              }),
            );
        for (let failure = 0; failure < 3; failure++) expect((await attempt('6.6.6.6')).code).toBe(401);
        // Past its allowance the attacker waits, and each failure it manages doubles the wait.
        const throttled = await attempt('6.6.6.6');
        expect(throttled).toEqual({ code: 429, retryAfter: 1 });
        expect((await attempt('6.6.6.6', PASSWORD)).code).toBe(429);
        // The owner, from another address, signs in at once, any number of times.
        for (let login = 0; login < 3; login++) expect((await attempt('10.1.1.1', PASSWORD)).code).toBe(201);
        // And a failure of the owner's own does not inherit the attacker's count.
        expect((await attempt('10.1.1.1')).code).toBe(401);
        expect((await attempt('10.1.1.1', PASSWORD)).code).toBe(201);
      } finally {
        await composed.close();
      }
    },
  );
});
