import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { namesOf } from '../../../scripts/new-service/templates';

const root = path.resolve(__dirname, '../../..');
const SERVICE_LIST = 'src/application/services/service-list.ts';

/**
 * `base`, or `base-2`, `base-3`...: the first name the generator would accept in this checkout,
 * which may have services of its own (`npm run new:service` refuses a name taken already).
 */
function freshName(base: string): string {
  const list = readFileSync(path.join(root, SERVICE_LIST), 'utf8');
  for (let count = 1; ; count++) {
    const name = count === 1 ? base : `${base}-${count}`;
    const taken =
      existsSync(path.join(root, 'src/application/services', name)) ||
      new RegExp(`\\b${namesOf(name).camel}Service\\b`).test(list);
    if (!taken) return name;
  }
}

/** The entries of `SERVICES = [...]` in a list file. */
const listEntries = (list: string) =>
  /export const SERVICES[^=]*=\s*\[([^\]]*)\]/
    .exec(list)![1]
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

/** The service the test generates (a dashed name: a quoted key in the client types), and one for refused calls. */
const NAME = freshName('generated-notes');
const { camel, pascal } = namesOf(NAME);
const REFUSED = freshName('generated-tasks');
const node = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 240_000, env: { ...process.env, ...env } });
const generate = (copy: string, ...args: string[]) =>
  node(['-r', '@swc-node/register', path.join(root, 'scripts/new-service.ts'), ...args, '--root', copy], root);

/** Starts `src/main.ts` of `copy` as `npm start` does and resolves with its URL once it listens. */
function start(copy: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: copy,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: ':memory:',
      PASSWORD_HASH_COST: '10',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^"\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

async function call(url: string, method: string, body?: unknown, token?: string) {
  const response = await fetch(url, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: response.status, body: await response.json() };
}

describe('npm run new:service', () => {
  let copy: string;

  beforeAll(async () => {
    // A checkout of its own: the generator edits the list of services.
    copy = await mkdtemp(path.join(tmpdir(), 'new-service-'));
    await cp(path.join(root, 'src'), path.join(copy, 'src'), { recursive: true });
    for (const file of ['tsconfig.json', 'package.json', '.swcrc', 'jest.config.ts', '.prettierrc.json'])
      await cp(path.join(root, file), path.join(copy, file));
    await mkdir(path.join(copy, 'test'));
    await cp(path.join(root, 'test/reporters'), path.join(copy, 'test/reporters'), { recursive: true });
    await symlink(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  });
  afterAll(() => rm(copy, { recursive: true, force: true }));

  it('writes a service that type-checks, passes its own test and serves over HTTP on both stores', async () => {
    const listBefore = await readFile(path.join(copy, SERVICE_LIST), 'utf8');
    const run = generate(copy, NAME, '--fields', 'title:string,body:string,done:boolean');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // Appended to the services there are, which stay as they were.
    const listAfter = await readFile(path.join(copy, SERVICE_LIST), 'utf8');
    expect(listEntries(listAfter)).toEqual([...listEntries(listBefore), `${camel}Service`]);
    expect(listAfter).toContain(`import { ${camel}Service } from './${NAME}/${NAME}.definition';`);
    // The clients' types now know the service (and the check that CI runs agrees).
    expect(run.stdout).toContain('updated src/application/services/service-types.generated.ts');
    const clientTypes = await readFile(path.join(copy, 'src/application/services/service-types.generated.ts'), 'utf8');
    expect(clientTypes).toContain(`  '${NAME}': {\n    record: ${pascal}Record;\n    create: Create${pascal}Dto;`);
    const check = node(
      ['-r', '@swc-node/register', path.join(root, 'scripts/generate-client-types.ts'), '--check', '--root', copy],
      root,
    );
    expect(check.stdout).toContain('is up to date');
    // Each field is written once, in the create DTO; the patch and query DTOs are derived from it.
    const dto = await readFile(path.join(copy, `src/application/services/${NAME}/${NAME}.dto.ts`), 'utf8');
    for (const field of ['title', 'body', 'done'])
      expect(dto.match(new RegExp(`^  ${field}[?!]:`, 'gm'))).toHaveLength(1);
    expect(dto).toContain(`partialOf(Create${pascal}Dto, 'Patch${pascal}Dto')`);
    expect(dto).toContain(`queryOf(Create${pascal}Dto, ['title', 'body', 'done'])`);

    await writeFile(
      path.join(copy, 'tsconfig.generated.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        include: [],
        files: [`test/integration/services/${NAME}.test.ts`, 'src/main.ts'],
      }),
    );
    const typecheck = node(
      [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.generated.json'],
      copy,
    );
    expect(typecheck.stdout + typecheck.stderr).toBe('');

    const jest = node(
      [
        path.join(root, 'node_modules/jest/bin/jest.js'),
        '--rootDir',
        copy,
        `test/integration/services/${NAME}.test.ts`,
      ],
      copy,
    );
    expect(jest.stderr).toMatch(/Tests:\s+8 passed, 8 total/);

    for (const store of ['memory', 'mongo']) {
      const { child, url } = await start(copy, { STORE: store });
      try {
        await call(`${url}/users`, 'POST', { email: 'ann@example.com', password: 'correct horse' });
        const login = await call(`${url}/authentication`, 'POST', {
          strategy: 'local',
          email: 'ann@example.com',
          password: 'correct horse',
        });
        const created = await call(
          `${url}/${NAME}`,
          'POST',
          { title: 't', body: 'b', done: false },
          login.body.accessToken,
        );
        expect(created).toMatchObject({
          status: 201,
          body: { title: 't', body: 'b', done: false, userId: login.body.user._id },
        });
        expect((await call(`${url}/${NAME}`, 'POST', { title: 't', body: 'b', done: false })).status).toBe(401);
        expect(
          (await call(`${url}/${NAME}`, 'POST', { title: 't', body: 'b', done: 'no' }, login.body.accessToken)).status,
        ).toBe(400);
        const openapi = await call(`${url}/openapi.json`, 'GET');
        expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining([`/${NAME}`, `/${NAME}/{id}`]));
      } finally {
        child.kill('SIGKILL');
      }
    }
  }, 300_000);

  it.each([
    [['Notes', '--fields', 'title:string'], /^new:service: "Notes" is not a service name/],
    [['users', '--fields', 'title:string'], /^new:service: a service named "users" exists already/],
    [['health', '--fields', 'title:string'], /^new:service: "health" is a path the application answers itself/],
    [[REFUSED], /^new:service: --fields is required/],
    [[REFUSED, '--fields', 'title:text'], /^new:service: --fields: "title" has the unknown type "text"/],
    [[REFUSED, '--fields', 'userId:string'], /^new:service: --fields: "userId" is set by the server/],
    [
      ['constructor', '--fields', 'title:string'],
      /^new:service: "constructor" is a name every JavaScript object has \(Object\.prototype\.constructor\)/,
    ],
    [
      [REFUSED, '--fields', 'title:string,toString:string'],
      /^new:service: --fields: "toString" is a name every JavaScript object has/,
    ],
    [
      [REFUSED, '--fields', 'valueOf:number'],
      /^new:service: --fields: "valueOf" is a name every JavaScript object has/,
    ],
    [
      [REFUSED, '--fields', 'hasOwnProperty:boolean'],
      /^new:service: --fields: "hasOwnProperty" is a name every JavaScript object has/,
    ],
  ])('refuses %j with one line', (args, message) => {
    const run = generate(copy, ...(args as string[]));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(message as RegExp);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
