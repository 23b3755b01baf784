import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signUpAndLogIn, uniqueEmail, type Account } from '../../helpers/accounts';
import { spawnTs, type ChildHandle } from '../../helpers/child-process';
import { call } from '../../helpers/http';

/**
 * docs/adding-a-service.md, "Adding a field: `pinned` on messages": the recipe's two edits and the
 * generator, made in a copy of the project, then each promise of that section checked over HTTP.
 */
const root = path.resolve(__dirname, '../../..');
const DOC = 'docs/adding-a-service.md';
const DTO_FILE = 'src/application/services/messages/messages.dto.ts';
const DEFINITION_FILE = 'src/application/services/messages/messages.definition.ts';
const CLIENT_TYPES_FILE = 'src/application/services/service-types.generated.ts';

/** Step 1: `pinned` in `CreateMessageDto`, after its one field. */
const DTO_ANCHOR = `export class CreateMessageDto {
  @IsString()
  @MinLength(1)
  @MaxLength(5000)
  text!: string;
`;
const DTO_ADDITION = `
  @IsOptional()
  @IsBoolean()
  pinned?: boolean;
`;
/** Step 2: the owner's rule of the policy. */
const POLICY_BEFORE = "can(['update', 'patch'], ['text', 'read'], { userId: caller.id });";
const POLICY_AFTER = "can(['update', 'patch'], ['text', 'read', 'pinned'], { userId: caller.id });";

/** Composes the copy's application as the recipe leaves it and prints the URL it listens on. */
const SERVER_SCRIPT = `import 'reflect-metadata';
import { listenHttp } from './src/adapters/http';
import { composeApplication } from './src/composition-root';
import { loadConfig } from './src/composition/load-config';

async function main(): Promise<void> {
  const config = loadConfig({
    NODE_ENV: 'test',
    STORE: process.argv[2],
    DATA_DIR: ':memory:',
    AUTH_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
    PASSWORD_HASH_COST: '10',
    PORT: '0',
  });
  const composed = await composeApplication(config, { authentication: { rateLimit: false, signUpRateLimit: false } });
  const http = await listenHttp(composed.http, { port: config.port });
  console.log('listening on ' + http.url);
}

main().catch((error: Error) => {
  console.error('start-up failed: ' + (error.stack ?? error.message));
  process.exit(1);
});
`;

/** Replaces the one occurrence of `anchor` in the copy's `file`; fails when there is none or more than one. */
async function replaceOnce(copy: string, file: string, anchor: string, replacement: string): Promise<void> {
  const source = await readFile(path.join(copy, file), 'utf8');
  const found = source.split(anchor).length - 1;
  if (found !== 1)
    throw new Error(
      `${file}: the recipe's anchor is found ${found} times, not once (docs and code drifted):\n${anchor}`,
    );
  await writeFile(
    path.join(copy, file),
    source.replace(anchor, () => replacement),
  );
}

/** The files under `dir`, relative to it, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

/** `node -r @swc-node/register scripts/generate-client-types.ts --root <copy> ...`, in the copy. */
const generateClientTypes = (copy: string, ...args: string[]) =>
  spawnSync(
    process.execPath,
    ['-r', '@swc-node/register', 'scripts/generate-client-types.ts', '--root', copy, ...args],
    { cwd: copy, encoding: 'utf8', timeout: 30_000 },
  );

/** Each line trimmed: code blocks in the doc are indented under their list item. */
const trimmedLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .join('\n');

let copy: string;

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), 'add-a-field-'));
  for (const dir of ['src', 'scripts']) await cp(path.join(root, dir), path.join(copy, dir), { recursive: true });
  for (const file of ['tsconfig.json', 'package.json', '.swcrc', 'jest.config.ts', '.prettierrc.json'])
    await cp(path.join(root, file), path.join(copy, file));
  await symlink(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));

  await replaceOnce(copy, DTO_FILE, DTO_ANCHOR, DTO_ANCHOR + DTO_ADDITION);
  await replaceOnce(copy, DEFINITION_FILE, POLICY_BEFORE, POLICY_AFTER);
  const run = generateClientTypes(copy);
  if (run.status !== 0 || run.stderr !== '')
    throw new Error(`generate:client-types failed (${run.status ?? run.signal}):\n${run.stdout}\n${run.stderr}`);
  expect(run.stdout).toContain(`generate:client-types: wrote ${CLIENT_TYPES_FILE}`);
}, 60_000);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe('adding a field (docs/adding-a-service.md): the edits', () => {
  it('are the ones the doc shows', async () => {
    const doc = await readFile(path.join(root, DOC), 'utf8');
    const section = doc.slice(doc.indexOf('## Adding a field: `pinned` on messages'));
    expect(section).toContain('## Adding a field');
    expect(trimmedLines(section)).toContain(trimmedLines(DTO_ADDITION).trim());
    expect(section).toContain(POLICY_AFTER);
    expect(section).toContain('npm run generate:client-types');
  });

  it('change two source files, plus the generated client types, and nothing else in src/', async () => {
    const [original, copied] = await Promise.all([
      filesUnder(path.join(root, 'src')),
      filesUnder(path.join(copy, 'src')),
    ]);
    expect(copied).toEqual(original);
    const differing: string[] = [];
    for (const file of original) {
      const [before, after] = await Promise.all([
        readFile(path.join(root, 'src', file)),
        readFile(path.join(copy, 'src', file)),
      ]);
      if (!before.equals(after)) differing.push(path.join('src', file));
    }
    expect(differing.sort()).toEqual([DEFINITION_FILE, DTO_FILE, CLIENT_TYPES_FILE].sort());
  });

  it('give the clients `MessagesRecord.pinned` and `CreateMessageDto.pinned`, and the check agrees', async () => {
    const types = await readFile(path.join(copy, CLIENT_TYPES_FILE), 'utf8');
    const block = (name: string) => new RegExp(`export interface ${name} \\{\\n([^}]*)\\}`).exec(types)?.[1];
    expect(block('MessagesRecord')).toContain('\n  pinned?: boolean;\n');
    expect(block('CreateMessageDto')).toContain('\n  pinned?: boolean;\n');
    expect(block('PatchMessageDto')).toContain('\n  pinned?: boolean;\n');
    // The filterable fields of `ServiceTypes['messages']`.
    const fields = /\n {2}messages: \{\n[\s\S]*?\n {4}fields: \{\n([^}]*)\n {4}\};/.exec(types)?.[1];
    expect(`${fields}\n`).toContain('      pinned: boolean;\n');
    const check = generateClientTypes(copy, '--check');
    expect(check.stdout).toContain('is up to date');
    expect(check.status).toBe(0);
  });
});

describe.each([['memory'], ['mongo']])('adding a field (docs/adding-a-service.md): over HTTP on %s', (store) => {
  let child: ChildHandle;
  let url: string;
  let ann: Account;
  let bob: Account;
  let messageId: string;

  beforeAll(async () => {
    await writeFile(path.join(copy, 'serve-pinned.ts'), SERVER_SCRIPT);
    child = spawnTs('serve-pinned.ts', [store], {}, { cwd: copy });
    [, url] = await child.waitForOutput(/listening on (http:\/\/\S+)/, 30_000);
    ann = await signUpAndLogIn(url, uniqueEmail('ann'));
    bob = await signUpAndLogIn(url, uniqueEmail('bob'));
  }, 45_000);

  afterAll(async () => {
    await child?.stop('SIGKILL', 5_000);
  });

  it('creates a message without it (201), and refuses it on create with a 403 naming `pinned`', async () => {
    const created = await call(url, 'POST', '/messages', { body: { text: 'hi' }, token: ann.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ text: 'hi', userId: ann.user._id });
    expect(created.body).not.toHaveProperty('pinned');
    messageId = created.body._id;

    const refused = await call(url, 'POST', '/messages', { body: { text: 'x', pinned: true }, token: ann.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ name: 'Forbidden', message: 'You may not write pinned' });
    expect(refused.body.data).toEqual({ fields: ['pinned'] });
  });

  it('lets the author pin her message with a patch (200)', async () => {
    const patched = await call(url, 'PATCH', `/messages/${messageId}`, { body: { pinned: true }, token: ann.token });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ _id: messageId, text: 'hi', pinned: true });
  });

  it('refuses another reader a patch of it (403), who still sees it pinned', async () => {
    const refused = await call(url, 'PATCH', `/messages/${messageId}`, { body: { pinned: false }, token: bob.token });
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe('Forbidden');
    const read = await call(url, 'GET', `/messages/${messageId}`, { token: bob.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ _id: messageId, pinned: true });
  });

  it('filters by it, with URL strings as booleans, and refuses a value that is none (400)', async () => {
    const pinned = await call(url, 'GET', '/messages?pinned=true', { token: bob.token });
    expect(pinned.status).toBe(200);
    expect(pinned.body.total).toBe(1);
    expect(pinned.body.data.map((message: { _id: string }) => message._id)).toEqual([messageId]);
    const unpinned = await call(url, 'GET', '/messages?pinned=false', { token: bob.token });
    expect(unpinned.status).toBe(200);
    expect(unpinned.body.total).toBe(0);
    // A message never pinned has no `pinned` (not `false`), on both stores alike.
    const plain = await call(url, 'POST', '/messages', { body: { text: 'plain' }, token: ann.token });
    expect(plain.status).toBe(201);
    expect((await call(url, 'GET', '/messages?pinned=false', { token: bob.token })).body.total).toBe(0);
    const notPinned = await call(url, 'GET', '/messages?pinned[$ne]=true', { token: bob.token });
    expect(notPinned.body.data.map((message: { _id: string }) => message._id)).toEqual([plain.body._id]);
    const bad = await call(url, 'GET', '/messages?pinned=notabool', { token: bob.token });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('BadRequest');
  });

  it('is in the OpenAPI document: the record, the create and patch bodies, the query parameters of find', async () => {
    const { status, body: document } = await call(url, 'GET', '/openapi.json');
    expect(status).toBe(200);
    const { schemas, parameters } = document.components;
    expect(schemas.MessagesRecord.properties.pinned).toEqual({ type: 'boolean' });
    expect(schemas.MessagesRecord.required).not.toContain('pinned');
    expect(schemas.CreateMessageDto.properties.pinned).toEqual({ type: 'boolean' });
    expect(schemas.CreateMessageDto.required).toEqual(['text']);
    expect(schemas.PatchMessageDto.properties.pinned).toEqual({ type: 'boolean' });
    expect(parameters['messages.pinned']).toMatchObject({ name: 'pinned', in: 'query', schema: { type: 'boolean' } });
    expect(parameters['messages.pinned.ne']).toMatchObject({ name: 'pinned[$ne]', schema: { type: 'boolean' } });
    expect(document.paths['/messages'].get.parameters).toEqual(
      expect.arrayContaining([
        { $ref: '#/components/parameters/messages.pinned' },
        { $ref: '#/components/parameters/messages.pinned.ne' },
      ]),
    );
  });

  it("keeps it through the author's update (PUT, 200)", async () => {
    const updated = await call(url, 'PUT', `/messages/${messageId}`, {
      body: { text: 'hi again', pinned: true },
      token: ann.token,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ _id: messageId, text: 'hi again', pinned: true });
    const read = await call(url, 'GET', `/messages/${messageId}`, { token: bob.token });
    expect(read.body).toMatchObject({ text: 'hi again', pinned: true });
    // An update replaces what a client writes: one without `pinned` unpins (the server's fields, like `read`, stay).
    const replaced = await call(url, 'PUT', `/messages/${messageId}`, { body: { text: 'hi' }, token: ann.token });
    expect(replaced.status).toBe(200);
    expect(replaced.body).not.toHaveProperty('pinned');
    expect(replaced.body).toMatchObject({ text: 'hi', read: false });
  });
});
