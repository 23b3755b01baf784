import { uniqueEmail } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { RecordingSocket } from '../../helpers/socket-clients';

/** Three failures per address (over any accounts) before its delays start. */
const LIMITS = { rateLimit: { maxFailuresPerClient: 3, maxFailuresPerEmail: 100, windowMs: 60_000 } };

const failedLogin = (app: RunningApp, forwardedFor?: string) =>
  call(app.url, 'POST', '/authentication', {
    body: { strategy: 'local', email: uniqueEmail('nobody'), password: 'guess' },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }).then((response) => response.status);

/** Spends an address's allowance: three failures, each from `from()`. */
async function exhaust(app: RunningApp, from: () => string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) expect(await failedLogin(app, from())).toBe(401);
}

async function withApp(env: Record<string, string>, run: (app: RunningApp) => Promise<void>): Promise<void> {
  const app = await startApp({ STORE: 'memory', ...env }, LIMITS);
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

describe('TRUST_PROXY decides which address logins are limited by', () => {
  it('unset: X-Forwarded-For is ignored, so a client cannot pick a fresh address per attempt', () =>
    withApp({}, async (app) => {
      let sequence = 0;
      await exhaust(app, () => `198.51.100.${++sequence}`);
      expect(await failedLogin(app, '198.51.100.99')).toBe(429);
    }));

  it('a hop count: the address the trusted proxy saw, never what the client wrote left of it', () =>
    withApp({ TRUST_PROXY: '1' }, async (app) => {
      await exhaust(app, () => '203.0.113.1');
      expect(await failedLogin(app, '203.0.113.1')).toBe(429);
      // Another client behind the same proxy is not affected.
      expect(await failedLogin(app, '203.0.113.2')).toBe(401);
      // A forged entry before the proxy's own is not the address.
      let sequence = 0;
      await exhaust(app, () => `10.9.9.${++sequence}, 203.0.113.3`);
      expect(await failedLogin(app, '10.9.9.99, 203.0.113.3')).toBe(429);
    }));

  it('a CIDR list: X-Forwarded-For is read only from a proxy inside it', async () => {
    await withApp({ TRUST_PROXY: '127.0.0.0/8, ::1' }, async (app) => {
      await exhaust(app, () => '203.0.113.1');
      expect(await failedLogin(app, '203.0.113.1')).toBe(429);
      expect(await failedLogin(app, '203.0.113.2')).toBe(401);
    });
    await withApp({ TRUST_PROXY: '10.0.0.0/8' }, async (app) => {
      let sequence = 0;
      await exhaust(app, () => `203.0.113.${++sequence}`);
      expect(await failedLogin(app, '203.0.113.99')).toBe(429);
    });
  });

  it('off (`false`): the peer address only', () =>
    withApp({ TRUST_PROXY: 'false' }, async (app) => {
      let sequence = 0;
      await exhaust(app, () => `203.0.113.${++sequence}`);
      expect(await failedLogin(app, '203.0.113.99')).toBe(429);
    }));

  it('IPv6 addresses count by their /64; an IPv4-mapped address is its IPv4 address', () =>
    withApp({ TRUST_PROXY: '1' }, async (app) => {
      let sequence = 0;
      await exhaust(app, () => `2001:db8:1:2::${(++sequence).toString(16)}`);
      expect(await failedLogin(app, '2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe(429);
      expect(await failedLogin(app, '2001:db8:1:3::1')).toBe(401);
      await exhaust(app, () => '::ffff:198.51.100.7');
      expect(await failedLogin(app, '198.51.100.7')).toBe(429);
    }));

  it('applies to socket handshakes too', () =>
    withApp({ TRUST_PROXY: '1' }, async (app) => {
      const socketFrom = (address: string) =>
        new RecordingSocket(app.url, { extraHeaders: { 'x-forwarded-for': address } });
      const first = socketFrom('203.0.113.50');
      const second = socketFrom('203.0.113.51');
      try {
        await Promise.all([first.connected(), second.connected()]);
        const attempt = async (socket: RecordingSocket) => {
          const [error] = (await socket.call(
            'create',
            'authentication',
            { strategy: 'local', email: uniqueEmail('nobody'), password: 'guess' },
            {},
          )) as [{ code: number }];
          return error.code;
        };
        for (let failure = 0; failure < 3; failure++) expect(await attempt(first)).toBe(401);
        expect(await attempt(first)).toBe(429);
        expect(await attempt(second)).toBe(401);
        // REST from the same forwarded address shares the count.
        expect(await failedLogin(app, '203.0.113.50')).toBe(429);
      } finally {
        first.close();
        second.close();
      }
    }));
});
