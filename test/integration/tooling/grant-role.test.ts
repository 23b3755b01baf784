import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { startApp, TEST_SECRET, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';

const root = path.resolve(__dirname, '../../..');

/** `npm run grant-role -- ...` as an operator runs it, with the server's configuration. */
function grantRole(dataDir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['-r', '@swc-node/register', 'scripts/grant-role.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NODE_ENV: 'test', STORE: 'mongo', DATA_DIR: dataDir, AUTH_SECRET: TEST_SECRET },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('npm run grant-role: roles set on the configured store, from the next call on', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'grant-role-'));
  const env = { STORE: 'mongo', DATA_DIR: dataDir };
  let app: RunningApp | undefined;
  let author: Account;
  let moderator: Account;

  const removeAMessage = async (by: Account) => {
    const created = await call(app!.url, 'POST', '/messages', { token: author.token, body: { text: 'to moderate' } });
    return (await call(app!.url, 'DELETE', `/messages/${created.body._id}`, { token: by.token })).status;
  };

  beforeAll(async () => {
    app = await startApp(env);
    author = await signUpAndLogIn(app.url);
    moderator = await signUpAndLogIn(app.url);
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('grants and revokes through the running server (its private socket); the same token follows at once', async () => {
    expect(await removeAMessage(moderator)).toBe(403);
    const granted = grantRole(dataDir, moderator.user.email.toUpperCase(), 'admin');
    expect(granted).toMatchObject({ status: 0, output: expect.stringContaining('granted the role admin') });
    expect(await removeAMessage(moderator)).toBe(200);
    expect(grantRole(dataDir, moderator.user.email, 'admin').output).toContain('already had');
    expect(grantRole(dataDir, moderator.user.email, 'admin', '--revoke')).toMatchObject({
      status: 0,
      output: expect.stringContaining('revoked'),
    });
    expect(await removeAMessage(moderator)).toBe(403);
  });

  it('refuses an unknown account and a malformed role with one line and exit code 1', () => {
    expect(grantRole(dataDir, 'nobody@example.com', 'admin')).toMatchObject({
      status: 1,
      output: expect.stringContaining('no account has the e-mail nobody@example.com'),
    });
    expect(grantRole(dataDir, moderator.user.email, 'Admin; drop')).toMatchObject({
      status: 1,
      output: expect.stringContaining('usage: npm run grant-role'),
    });
  });

  it('opens the data folder itself while the server is stopped, and the role is there after a restart', async () => {
    await app!.close();
    app = undefined;
    expect(grantRole(dataDir, moderator.user.email, 'admin')).toMatchObject({
      status: 0,
      output: expect.stringContaining('granted'),
    });
    app = await startApp(env);
    expect(await removeAMessage(moderator)).toBe(200);
  });
});
