import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { signUpAndLogIn, uniqueEmail } from '../../helpers/accounts';
import { killChildren } from '../../helpers/child-process';
import { call } from '../../helpers/http';
import { listeningTcpPorts } from '../../helpers/listening-ports';
import { startMainProcess, type MainProcess } from '../../helpers/main-process';

/** A user that is not the application's, for the connection attempt another local user would make. */
const NOBODY = 65534;

/**
 * `npm start` on the embedded store: the database has no authentication, so the application
 * hosts it where only its own user can connect: a 0600 Unix socket in a 0700 folder, no TCP
 * port besides the HTTP one, and none in the log. The application still works end to end.
 */
describe('reliability: only the application reaches its embedded database', () => {
  const dataDirs: string[] = [];
  afterAll(async () => {
    await killChildren();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('with a DATA_DIR: a private socket in DATA_DIR, removed on stop', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'db-access-'));
    dataDirs.push(dataDir);
    const app = await startMainProcess({ STORE: 'mongo', DATA_DIR: dataDir });
    const socketPath = await expectPrivateDatabase(app);
    expect(socketPath).toBe(path.join(dataDir, 'embedded-mongo-socket', 'embedded-mongo.sock'));
    await expect(app.child.stop()).resolves.toEqual({ code: 0, signal: null });
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  }, 90_000);

  it("with DATA_DIR=':memory:': a private temporary folder, removed on stop", async () => {
    const app = await startMainProcess({ STORE: 'mongo', DATA_DIR: ':memory:' });
    const socketPath = await expectPrivateDatabase(app);
    expect(path.dirname(path.dirname(socketPath))).toBe(tmpdir());
    await expect(app.child.stop()).resolves.toEqual({ code: 0, signal: null });
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  }, 90_000);
});

/** Checks everything a local attacker could use; returns the socket's path. */
async function expectPrivateDatabase(app: MainProcess): Promise<string> {
  const [, databaseUrl] = await app.child.waitForOutput(
    /"component":"embedded-mongo".*"url":"(mongodb:\/\/[^"]+)"/,
    10_000,
  );
  const httpPort = Number(new URL(app.url).port);

  // No port in the log but the HTTP one, and no TCP listener but the HTTP one.
  const logged = [...app.child.stdout.matchAll(/(?:127\.0\.0\.1|localhost|\[::1?\]|0\.0\.0\.0):(\d+)/g)].map((match) =>
    Number(match[1]),
  );
  expect(new Set(logged)).toEqual(new Set([httpPort]));
  expect(listeningTcpPorts(app.child.process.pid!)).toEqual([httpPort]);

  // The database's address is a Unix socket, owner-only, in an owner-only folder.
  // A socket path with capital letters carries `?directConnection=true` (the driver lower-cases member names).
  const socketPath = decodeURIComponent(/^mongodb:\/\/([^/]+)\/(?:\?directConnection=true)?$/.exec(databaseUrl)![1]);
  expect(path.isAbsolute(socketPath)).toBe(true);
  const socket = statSync(socketPath);
  const folder = statSync(path.dirname(socketPath));
  expect({ socket: socket.isSocket(), socketMode: socket.mode & 0o777, folderMode: folder.mode & 0o777 }).toEqual({
    socket: true,
    socketMode: 0o600,
    folderMode: 0o700,
  });
  expect([socket.uid, folder.uid]).toEqual([process.getuid!(), process.getuid!()]);
  if (process.getuid!() === 0) expect(connectAs(NOBODY, socketPath)).toBe('EACCES');

  // End to end over HTTP, and the socket is that database (this test runs as the application's user).
  const email = uniqueEmail('db-access');
  const { token } = await signUpAndLogIn(app.url, email);
  const created = await call(app.url, 'POST', '/messages', { token, body: { text: 'over the private socket' } });
  expect(created.status).toBe(201);
  expect((await call(app.url, 'GET', `/messages/${created.body._id}`, { token })).body.text).toBe(
    'over the private socket',
  );
  const client = new MongoClient(databaseUrl, { serverSelectionTimeoutMS: 5000 });
  try {
    expect(await client.db('app').collection('users').countDocuments({ email })).toBe(1);
  } finally {
    await client.close();
  }
  return socketPath;
}

/** What another local user gets when connecting to the socket (as root only: it needs setuid). */
function connectAs(uid: number, socketPath: string): string {
  const probe =
    `require('node:net').connect(${JSON.stringify(socketPath)}).on('connect', () => { console.log('connected'); ` +
    `process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); });`;
  const result = spawnSync(process.execPath, ['-e', probe], {
    uid,
    gid: uid,
    encoding: 'utf8',
    timeout: 10_000,
    cwd: '/',
  });
  return result.stdout.trim() || `no answer (${result.stderr.trim() || result.signal})`;
}
