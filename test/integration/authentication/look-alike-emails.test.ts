import { PASSWORD, signUpAndLogIn, uniqueEmail, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call, isErrorBody } from '../../helpers/http';

/** Characters that make an address look like another one (issue 25, finding 11). */
const INVISIBLE: [string, string][] = [
  ['U+200B zero width space', '\u200b'],
  ['U+00AD soft hyphen', '\u00ad'],
  ['U+2060 word joiner', '\u2060'],
  ['U+202E right-to-left override', '\u202e'],
];

const toFullWidth = (text: string) =>
  [...text].map((c) => (/[a-z]/i.test(c) ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)).join('');

describe.each(BOTH_STORES)('look-alike e-mails never become separate accounts, on %s', (_store, env) => {
  let app: RunningApp;
  let karen: Account;
  let email: string;

  beforeAll(async () => {
    app = await startApp(env);
    email = uniqueEmail('karen');
    karen = await signUpAndLogIn(app.url, email);
  }, 60_000);
  afterAll(() => app?.close());

  const parts = () => email.split('@') as [string, string];

  it.each(INVISIBLE)('sign-up with %s inside the address is a 400', async (_label, character) => {
    const [name, host] = parts();
    const lookAlike = `${name.slice(0, 3)}${character}${name.slice(3)}@${host}`;
    const response = await call(app.url, 'POST', '/users', { body: { email: lookAlike, password: PASSWORD } });
    expect(response.status).toBe(400);
    expect(isErrorBody(response.body, 400)).toBe(true);
    expect(response.body.errors.email).toEqual(['email must not contain invisible, formatting or control characters']);
  });

  it('sign-up with a quoted local part is a 400', async () => {
    const [name, host] = parts();
    const response = await call(app.url, 'POST', '/users', {
      body: { email: `"${name}"@${host}`, password: PASSWORD },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.email).toEqual(['email must not have a quoted or escaped local part']);
  });

  it('a full-width spelling is the same account: sign-up is a 409 and login finds Karen', async () => {
    const [name, host] = parts();
    const wide = `${toFullWidth(name.toUpperCase())}@${host}`;
    const signUp = await call(app.url, 'POST', '/users', { body: { email: wide, password: PASSWORD } });
    expect(signUp.status).toBe(409);
    const login = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: wide, password: PASSWORD },
    });
    expect(login.status).toBe(201);
    expect(login.body.user._id).toBe(karen.user._id);
  });

  it('a login with an invisible character finds no account', async () => {
    const [name, host] = parts();
    const login = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: `${name}\u200b@${host}`, password: PASSWORD },
    });
    expect(login.status).toBe(401);
  });

  it('patch and update refuse a look-alike address too', async () => {
    const [name, host] = parts();
    const path = `/users/${karen.user._id}`;
    const patched = await call(app.url, 'PATCH', path, {
      token: karen.token,
      body: { email: `${name}\u2060@${host}` },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.errors.email).toEqual(['email must not contain invisible, formatting or control characters']);
    const replaced = await call(app.url, 'PUT', path, {
      token: karen.token,
      body: { email: `"${name}"@${host}`, password: PASSWORD },
    });
    expect(replaced.status).toBe(400);
    const stored = await call(app.url, 'GET', path, { token: karen.token });
    expect(stored.body.email).toBe(email);
  });
});
