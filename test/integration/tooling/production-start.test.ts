import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseUrl, startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';
import { signUpAndLogIn } from '../../helpers/accounts';
import { call } from '../../helpers/http';
import { RecordingSocket } from '../../helpers/socket-clients';

const root = path.resolve(__dirname, '../../..');
const SECRET = 'production-start-secret-0123456789abcdef';

/**
 * What a deployment does: `npm run build`, then the production dependencies alone (`npm ci
 * --omit=dev`, the tree `npm prune --omit=dev` leaves) in a folder outside the repository, so
 * nothing can be found in the repository's node_modules, and `npm run start:prod` there.
 */
function buildAndInstallWithoutDevDependencies(folder: string): void {
  const run = (command: string, args: string[], cwd: string) => {
    const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 150_000 });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stdout}${result.stderr}`);
  };
  run('npm', ['run', 'build', '--', '--out-dir', path.join(folder, 'dist')], root);
  for (const file of ['package.json', 'package-lock.json'])
    copyFileSync(path.join(root, file), path.join(folder, file));
  run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], folder);
}

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  stop(): Promise<number | null>;
}

/** `npm run start:prod`'s command with only the given environment; resolves with its URL once it listens. */
function startProd(folder: string, env: Record<string, string>): Promise<Started> {
  const [command, ...args] = prodCommand(folder);
  const child = spawn(command, args, {
    cwd: folder,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: '0', HOST: '127.0.0.1', PASSWORD_HASH_COST: '10' },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "listening" line within 30 s: ${output}`));
    }, 30_000);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve({ child, url: listening[1], stop });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening: ${output}`));
    });
  });
}

/** The script `npm run start:prod` runs, read from the installed package.json (so the test follows it). */
function prodCommand(folder: string): string[] {
  const script = (
    JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts['start:prod'];
  expect(script).toBe('node dist/main.js');
  return [process.execPath, 'dist/main.js'];
}

async function socketFind(url: string, token: string): Promise<unknown[]> {
  const socket = new RecordingSocket(url, { auth: { token } });
  try {
    await socket.connected();
    return await socket.call('find', 'messages', {});
  } finally {
    socket.socket.close();
  }
}

describe('production start: the build, without dev dependencies, NODE_ENV=production', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'production-start-'));
  let mongo: MongoTestServer;
  const running: Started[] = [];
  const start = async (env: Record<string, string>) => {
    const started = await startProd(folder, { NODE_ENV: 'production', AUTH_SECRET: SECRET, ...env });
    running.push(started);
    return started;
  };

  beforeAll(async () => {
    buildAndInstallWithoutDevDependencies(folder);
    mongo = await startMongoTestServer();
  }, 240_000);

  afterAll(async () => {
    await Promise.all(running.map((started) => started.stop()));
    await mongo?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('installs no dev dependency: no TypeScript loader, no bundler, no test tools', () => {
    const installed = readdirSync(path.join(folder, 'node_modules'));
    for (const devOnly of ['@swc-node', '@swc', 'esbuild', 'typescript', 'jest', 'ts-node'])
      expect(installed).not.toContain(devOnly);
  });

  it(
    'on MONGODB_URL: answers /health, signs up, logs in, serves the API ' +
      'over HTTP and sockets; no chat page, no docs',
    async () => {
      const app = await start({ MONGODB_URL: databaseUrl(mongo.url, `production_start_${process.pid}`) });
      expect(await call(app.url, 'GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(await call(app.url, 'GET', '/ready')).toMatchObject({ status: 200 });
      const account = await signUpAndLogIn(app.url);
      const created = await call(app.url, 'POST', '/messages', {
        token: account.token,
        body: { text: 'from the build' },
      });
      expect(created.status).toBe(201);
      expect((await call(app.url, 'GET', '/messages', { token: account.token })).body).toMatchObject({
        total: 1,
        data: [{ text: 'from the build' }],
      });
      expect(await socketFind(app.url, account.token)).toEqual([null, expect.objectContaining({ total: 1 })]);
      expect((await call(app.url, 'GET', '/')).status).toBe(404);
      expect((await call(app.url, 'GET', '/docs')).status).toBe(404);
      expect(await app.stop()).toBe(0);
    },
    60_000,
  );

  it(
    'on the embedded server chosen with DATABASE=embedded, with CHAT_PAGE ' +
      'and DOCS on: /, its prebuilt script, /docs, sockets',
    async () => {
      const dataDir = path.join(folder, 'data');
      const app = await start({ DATABASE: 'embedded', DATA_DIR: dataDir, CHAT_PAGE: 'true', DOCS: 'true' });
      const page = await fetch(`${app.url}/`);
      expect(page.status).toBe(200);
      const script = /<script src="([^"]+)"/.exec(await page.text())![1];
      const bundle = await fetch(app.url + script);
      expect([bundle.status, bundle.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
      expect((await bundle.text()).length).toBeGreaterThan(10_000);
      expect((await fetch(`${app.url}/docs`)).status).toBe(200);
      expect((await call(app.url, 'GET', '/openapi.json')).body).toMatchObject({
        openapi: expect.stringMatching(/^3\.1/),
      });
      const account = await signUpAndLogIn(app.url);
      expect(await socketFind(app.url, account.token)).toEqual([null, expect.objectContaining({ total: 0 })]);
      expect(readdirSync(dataDir).length).toBeGreaterThan(0);
      expect(await app.stop()).toBe(0);
    },
    60_000,
  );

  it('without MONGODB_URL (and no DATABASE=embedded): refuses to start, with one line', async () => {
    const [command, ...args] = prodCommand(folder);
    const refused = spawnSync(command, args, {
      cwd: folder,
      encoding: 'utf8',
      timeout: 30_000,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        AUTH_SECRET: SECRET,
        DATA_DIR: path.join(folder, 'never'),
      },
    });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'start-up failed: MONGODB_URL must be set when NODE_ENV=production (or ' +
        'choose the embedded database with DATABASE=embedded)\n',
    );
    expect(readdirSync(folder)).not.toContain('never');
  });
});
