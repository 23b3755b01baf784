import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { chromiumAvailable, chromiumMissingReason, launchChromium } from '../../helpers/chromium';
import { itIf } from '../../helpers/skip-with-reason';
import { startApp, type RunningApp } from '../../helpers/app-server';

const root = path.resolve(__dirname, '../../..');
const SOCKET_IO_CLIENT = (
  JSON.parse(readFileSync(path.join(root, 'node_modules/socket.io-client/package.json'), 'utf8')) as { version: string }
).version;

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 150_000, env: { ...process.env, ...env } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A child that calls the server this process runs: asynchronous, so that the server can answer. */
function runAgainstServer(
  file: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file],
      { cwd, timeout: 60_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

function runOrThrow(command: string, args: string[], cwd: string): string {
  const result = run(command, args, cwd);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.output}`);
  return result.output;
}

/** tsc of the repository (the consumer installs only the client package and socket.io-client). */
function typeCheck(project: string, file: string) {
  return run(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(project, `tsconfig.${file}.json`)],
    project,
  );
}

const TSCONFIG = (file: string, emit: boolean) => ({
  compilerOptions: {
    strict: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2023', 'dom'],
    types: [],
    ...(emit ? { outDir: 'out' } : { noEmit: true }),
  },
  files: [file],
});

/**
 * Calls a running server as a front-end would: sign-up, login, typed REST and socket calls, a
 * custom method, an event.
 */
const GOOD = `import { io } from 'socket.io-client';
import { authenticationClient, createApp, NotAuthenticated, rest, socketio, type MessagesRecord, type ServiceTypes } from '@hexa-services/client';

declare const process: { env: Record<string, string | undefined> };
const url = process.env.SERVER_URL!;
const email = \`consumer-\${Date.now()}@example.com\`;
const password = 'correct horse battery';

const app = createApp().configure(rest(url).fetch(fetch));
const auth = authenticationClient();
app.configure(auth.configure);
const user = await app.service('users').create({ email, password, name: 'Consumer' });
await auth.authenticate({ strategy: 'local', email, password });
const created: MessagesRecord = await app.service('messages').create({ text: 'typed hello' });
const read = await app.service('messages').markRead({ id: created._id });
const page = await app.service('messages').find({ query: { read: true, userId: user._id, likes: { $gte: 0 }, $sort: { createdAt: -1 }, $limit: 5 } });
const mine: MessagesRecord[] = (await app.service('messages').find({ query: { userId: { $in: [user._id] } } })).data;

let refused = '';
try {
  await createApp().configure(rest(url).fetch(fetch)).service('messages').find();
} catch (error) {
  if (error instanceof NotAuthenticated) refused = \`\${error.name} \${error.code}\`;
}

const socket = io(url, { transports: ['websocket'], reconnection: false });
const live = createApp<ServiceTypes>().configure(socketio(socket));
const liveAuth = authenticationClient();
live.configure(liveAuth.configure);
await liveAuth.authenticate({ strategy: 'local', email, password });
const heard = new Promise<MessagesRecord>((resolve) => live.service('messages').once('created', resolve));
await live.service('messages').create({ text: 'over the socket' });
const event = await heard;
const socketRead = await live.service('messages').markRead({ id: event._id });
socket.close();

console.log(JSON.stringify({ user: user.name, read: read.read, total: page.total, mine: mine.length, refused, event: event.text, socketRead: socketRead.read }));
`;

/** The mistakes the types must catch: wrong data type, unknown query field, a method the service lacks. */
const BAD = `import { createApp, rest } from '@hexa-services/client';

const app = createApp().configure(rest('http://127.0.0.1:9').fetch(fetch));
await app.service('messages').create({ text: 1 });
await app.service('messages').find({ query: { nope: 1 } });
await app.service('users').markRead({ id: 'x' });
`;

const COMMONJS = `const client = require('@hexa-services/client');
console.log(JSON.stringify({ createApp: typeof client.createApp, socketio: typeof client.socketio, methods: client.SERVICE_METHODS.messages }));
`;

/** The browser script of the package, as a page loads it: `HexaServicesClient` and socket.io's own browser build. */
const BROWSER_PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>client ' +
  'package</title></head><body><script src="/consumer/socket.io.js"></script><script ' +
  'src="/consumer/client.js"></script><script src="/consumer/page.js"></script></body></html>';
const BROWSER_SCRIPT = `window.result = (async () => {
  const { authenticationClient, createApp, rest, socketio } = window.HexaServicesClient;
  const email = 'browser-' + Date.now() + '@example.com';
  const password = 'correct horse battery';
  const app = createApp().configure(rest().fetch(window.fetch));
  const auth = authenticationClient({ storage: window.localStorage });
  app.configure(auth.configure);
  await app.service('users').create({ email, password });
  await auth.authenticate({ strategy: 'local', email, password });
  const created = await app.service('messages').create({ text: 'from the browser' });
  const read = await app.service('messages').markRead({ id: created._id });
  const socket = window.io({ transports: ['websocket'], reconnection: false });
  const live = createApp().configure(socketio(socket));
  const liveAuth = authenticationClient();
  live.configure(liveAuth.configure);
  await liveAuth.authenticate({ strategy: 'local', email, password });
  const page = await live.service('messages').find({ query: { read: true, userId: created.userId } });
  const socketRead = await live.service('messages').markRead({ id: created._id });
  socket.close();
  return { read: read.read, total: page.total, socketRead: socketRead.read };
})();
`;

describe('the client package: packed, installed in a fresh project, type-checked, calling a running server', () => {
  const workDir = mkdtempSync(path.join(tmpdir(), 'client-package-'));
  const consumer = path.join(workDir, 'consumer');
  let server: RunningApp;
  let goodCheck: ReturnType<typeof typeCheck>;

  beforeAll(async () => {
    runOrThrow('npm', ['run', 'build:client'], root);
    const packed = runOrThrow('npm', ['pack', './packages/client', '--pack-destination', workDir, '--silent'], root)
      .trim()
      .split('\n')
      .pop()!;
    mkdirSync(consumer);
    writeFileSync(
      path.join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    runOrThrow(
      'npm',
      [
        'install',
        path.join(workDir, packed),
        `socket.io-client@${SOCKET_IO_CLIENT}`,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      consumer,
    );
    for (const [file, source, emit] of [
      ['good.ts', GOOD, true],
      ['bad.ts', BAD, false],
    ] as const) {
      writeFileSync(path.join(consumer, file), source);
      writeFileSync(path.join(consumer, `tsconfig.${file}.json`), JSON.stringify(TSCONFIG(file, emit)));
    }
    writeFileSync(path.join(consumer, 'commonjs.cjs'), COMMONJS);
    goodCheck = typeCheck(consumer, 'good.ts'); // and compiled to out/good.js
    server = await startApp({ STORE: 'memory' });
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('installs without any dependency of its own: no server package comes with it', () => {
    const installed = path.join(consumer, 'node_modules/@hexa-services/client');
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'package.json']);
    const modules = readdirSync(path.join(consumer, 'node_modules'));
    for (const server of ['express', 'mongodb', 'inversify', 'socket.io', 'class-validator', 'hexa-services'])
      expect(modules).not.toContain(server);
  });

  it('type-checks the good file, and refuses the bad one with exactly the expected errors', () => {
    expect(goodCheck).toEqual({ status: 0, output: '' });
    const bad = typeCheck(consumer, 'bad.ts');
    expect(bad.status).not.toBe(0);
    const errors = bad.output.split('\n').filter((line) => line.startsWith('bad.ts('));
    expect(errors).toEqual([
      expect.stringMatching(/^bad\.ts\(4,.*error TS2769: No overload matches this call\./),
      expect.stringMatching(
        /^bad\.ts\(5,.*error TS2353: Object literal may only specify known properties, and 'nope' does not exist in type/,
      ),
      expect.stringMatching(/^bad\.ts\(6,.*error TS2339: Property 'markRead' does not exist on type/),
    ]);
    expect(bad.output).toContain("Type 'number' is not assignable to type 'string'.");
  });

  it(
    'calls the server from Node as an ES module: REST and socket, login, ' +
      'a custom method without registration, an event',
    async () => {
      const result = await runAgainstServer('out/good.js', consumer, { SERVER_URL: server.url });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout.trim())).toEqual({
        user: 'Consumer',
        read: true,
        total: 1,
        mine: 1,
        refused: 'NotAuthenticated 401',
        event: 'over the socket',
        socketRead: true,
      });
    },
    60_000,
  );

  it('loads as CommonJS too', () => {
    const result = run(process.execPath, ['commonjs.cjs'], consumer);
    expect(JSON.parse(result.output)).toEqual({
      createApp: 'function',
      socketio: 'function',
      methods: ['find', 'get', 'create', 'update', 'patch', 'remove', 'markRead'],
    });
  });

  itIf(chromiumAvailable, chromiumMissingReason)(
    'runs in headless Chromium from its browser script',
    async () => {
      const files: Record<string, string> = {
        '/consumer/client.js': path.join(consumer, 'node_modules/@hexa-services/client/dist/hexa-services-client.js'),
        '/consumer/socket.io.js': path.join(consumer, 'node_modules/socket.io-client/dist/socket.io.min.js'),
      };
      server.composed.http.express.get('/consumer', (_req, res) => void res.type('html').send(BROWSER_PAGE));
      server.composed.http.express.get('/consumer/page.js', (_req, res) => void res.type('js').send(BROWSER_SCRIPT));
      server.composed.http.express.get(
        Object.keys(files),
        (req, res) => void res.type('js').send(readFileSync(files[req.path], 'utf8')),
      );
      let browser: Browser | undefined;
      try {
        browser = await launchChromium();
        const page = await browser.newPage();
        const pageErrors: string[] = [];
        page.on('pageerror', (error) => pageErrors.push(error.message));
        await page.goto(`${server.url}/consumer`);
        expect(await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result)).toEqual({
          read: true,
          total: 1,
          socketRead: true,
        });
        expect(pageErrors).toEqual([]);
      } finally {
        await browser?.close();
      }
    },
    60_000,
  );
});
