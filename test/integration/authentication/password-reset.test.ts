import { BOTH_STORES, type RunningApp } from '../../helpers/app-server';
import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { call } from '../../helpers/http';
import { pause, waitFor } from '../../helpers/socket-clients';
import { createMailer } from '../../../src/composition/mailer';
import { startRecordedApp } from './support/session-app';
import { startSmtpInbox, type SmtpInbox } from './support/smtp-inbox';

const headerNames = (headers: Headers): string[] => {
  const names: string[] = [];
  headers.forEach((_value, name) => names.push(name));
  return names.sort();
};

const NEW_PASSWORD = 'a fresh long password';
const SAME_ANSWER = {
  message:
    'If this address belongs to an account, a link to choose a new password has ' +
    'been sent to it. The link works once, within an hour.',
};

/** "Forgot password": a link by e-mail through a real SMTP server, used once, ending every session. */
describe.each(BOTH_STORES)('password reset by e-mail on the %s store', (_store, env) => {
  let inbox: SmtpInbox;
  let app: RunningApp & { log: string[] };
  const secrets: string[] = [];

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    app = await startRecordedApp(
      {
        ...env,
        SMTP_URL: inbox.url,
        MAIL_FROM: 'Chat <no-reply@example.com>',
        PASSWORD_RESET_URL: 'https://chat.example.com/reset',
      },
      { passwordResetRateLimit: { perClient: { max: 1000 }, perAddress: { max: 3 } } },
    );
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await inbox?.close();
  });

  async function account() {
    const email = uniqueEmail('reset');
    expect((await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } })).status).toBe(201);
    const login = (
      await call(app.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } })
    ).body;
    secrets.push(login.accessToken, login.refreshToken);
    return { email, login };
  }

  const ask = (email: string) => call(app.url, 'POST', '/password-resets', { body: { email } });
  const reset = (token: unknown, password: unknown = NEW_PASSWORD) =>
    call(app.url, 'POST', '/password-resets', { body: { token, password } });

  /** The token of the link in the mail sent to `email` (waits for it). */
  async function linkSentTo(email: string, nth = 1): Promise<string> {
    await waitFor(() => inbox.mails.filter((mail) => mail.to.includes(email)).length >= nth, `mail ${nth} to ${email}`);
    const mail = inbox.mails.filter((received) => received.to.includes(email))[nth - 1];
    expect(mail.text).toContain('From: Chat <no-reply@example.com>');
    const token = /https:\/\/chat\.example\.com\/reset#token=([0-9a-f-]{36}\.[0-9a-f]{64})/.exec(mail.text)?.[1];
    if (!token) throw new Error(`no link in the mail:\n${mail.text}`);
    secrets.push(token);
    return token;
  }

  it('mails a single-use link; using it sets the password and ends every session', async () => {
    const { email, login } = await account();
    const asked = await ask(email.toUpperCase());
    expect(asked.status).toBe(201);
    expect(asked.body).toEqual(SAME_ANSWER);
    const token = await linkSentTo(email);
    const done = await reset(token);
    expect(done.status).toBe(201);
    expect(done.text).not.toContain(token);
    expect((await call(app.url, 'GET', '/messages', { token: login.accessToken })).body).toMatchObject({
      code: 401,
      data: { reason: 'revoked' },
    });
    expect(
      (
        await call(app.url, 'POST', '/authentication', {
          body: { strategy: 'refresh', refreshToken: login.refreshToken },
        })
      ).status,
    ).toBe(401);
    expect(
      (await call(app.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } }))
        .status,
    ).toBe(401);
    expect(
      (await call(app.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: NEW_PASSWORD } }))
        .status,
    ).toBe(201);
    // Used once: refused ever after.
    expect((await reset(token, 'yet another password')).body).toMatchObject({
      code: 400,
      message: 'This reset link is invalid, used or expired: ask for a new one',
    });
  });

  it('answers an unknown address exactly as a known one, and mails nothing', async () => {
    const known = await account();
    const unknown = uniqueEmail('nobody');
    const [forKnown, forUnknown] = [await ask(known.email), await ask(unknown)];
    expect(forUnknown.status).toBe(forKnown.status);
    expect(forUnknown.text).toBe(forKnown.text);
    expect(headerNames(forUnknown.headers)).toEqual(headerNames(forKnown.headers));
    await linkSentTo(known.email);
    await pause(300);
    expect(inbox.mails.some((mail) => mail.to.includes(unknown))).toBe(false);
  });

  it('takes about as long for an unknown address as for a known one (medians within 25 % or 5 ms)', async () => {
    // One account per attempt: each address may ask three times an hour.
    const known: string[] = [];
    for (let attempt = 0; attempt < 7; attempt++) known.push((await account()).email);
    const times = { known: [] as number[], unknown: [] as number[] };
    for (const email of known) {
      for (const [kind, address] of [
        ['known', email],
        ['unknown', uniqueEmail('timing')],
      ] as const) {
        const started = performance.now();
        expect((await ask(address)).status).toBe(201);
        times[kind].push(performance.now() - started);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const [a, b] = [median(times.known), median(times.unknown)];
    expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.max(5, 0.25 * Math.max(a, b)));
  });

  it('refuses an expired link, a forged one and malformed input with the same 400', async () => {
    const { email } = await account();
    await ask(email);
    const token = await linkSentTo(email);
    const id = token.split('.')[0];
    await app.composed.app.service('password-reset-tokens').patch(id, { expiresAt: new Date(Date.now() - 1000) });
    for (const bad of [token, `${id}.${'0'.repeat(64)}`, 'garbage', 42, { $ne: null }]) {
      const response = await reset(bad);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('This reset link is invalid, used or expired: ask for a new one');
    }
    expect((await call(app.url, 'POST', '/password-resets', { body: {} })).status).toBe(400);
    expect((await call(app.url, 'POST', '/password-resets', { body: { email: { $gt: '' } } })).status).toBe(400);
    expect(
      (await call(app.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } }))
        .status,
    ).toBe(201);
  });

  it('a password the rules refuse is a 400 that leaves the link usable', async () => {
    const { email } = await account();
    await ask(email);
    const token = await linkSentTo(email);
    expect((await reset(token, 'short')).status).toBe(400);
    expect((await reset(token)).status).toBe(201);
  });

  it('throttles requests per address (429 with Retry-After), the same way for an unknown one', async () => {
    const { email } = await account();
    const unknown = uniqueEmail('throttled');
    for (const address of [email, unknown]) {
      for (let attempt = 0; attempt < 3; attempt++) expect((await ask(address)).status).toBe(201);
      const refused = await ask(address);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('never writes a token, a refresh token or a reset token into the log', () => {
    expect(secrets.length).toBeGreaterThan(10);
    expect(app.log.length).toBeGreaterThan(0);
    const log = app.log.join('\n');
    for (const secret of secrets) expect(log).not.toContain(secret.split('.').pop());
  });
});

describe('password reset requests per client address', () => {
  it('are throttled whatever the address asked about', async () => {
    const inbox = await startSmtpInbox();
    const app = await startRecordedApp(
      { STORE: 'memory', SMTP_URL: inbox.url },
      { passwordResetRateLimit: { perClient: { max: 4 } } },
    );
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt++)
        statuses.push(
          (await call(app.url, 'POST', '/password-resets', { body: { email: uniqueEmail('client') } })).status,
        );
      expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    } finally {
      await app.close();
      await inbox.close();
    }
  });
});

describe('password reset mail without SMTP_URL', () => {
  it('is written to the log outside production, so development needs no mail server', async () => {
    const app = await startRecordedApp({ STORE: 'memory' });
    try {
      const email = uniqueEmail('log-mail');
      await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } });
      expect((await call(app.url, 'POST', '/password-resets', { body: { email } })).body).toEqual(SAME_ANSWER);
      await waitFor(() => app.log.some((line) => line.includes('reset-password#token=')), 'the mail in the log');
    } finally {
      await app.close();
    }
  });

  it('is not sent, and not logged, in production', async () => {
    const lines: string[] = [];
    const write = (obj: object | string, msg?: string) => void lines.push(JSON.stringify([obj, msg ?? null]));
    const mailer = createMailer(
      { nodeEnv: 'production', mail: { from: 'x@example.com' } },
      { debug: write, info: write, warn: write, error: write },
    );
    await mailer.send({ to: 'ann@example.com', subject: 'Choose a new password', text: 'secret link' });
    expect(lines.join('\n')).not.toContain('secret link');
    expect(lines.join('\n')).toContain('set SMTP_URL');
  });
});
