import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
/** Where the packages' files are, as the require cache names them (a linked node_modules resolved). */
const packagesRoot = path.dirname(realpathSync(path.join(root, 'node_modules')));

/**
 * Runs `script` in a fresh Node process (the TypeScript sources through @swc-node/register, as
 * `npm start` runs them) and returns the packages it loaded, from the require cache.
 */
function packagesLoadedBy(script: string): string[] {
  const probe = `${script}
    .then(() => {
      const names = new Set();
      for (const file of Object.keys(require.cache)) {
        const match = /node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(file.slice(${packagesRoot.length}));
        if (match) names.add(match[1].replace('\\\\', '/'));
      }
      console.log(JSON.stringify([...names]));
    })
    .catch((error) => { console.error(error); process.exit(1); });`;
  const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', probe], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`probe failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!);
}

/** What an application on the memory store and the HTTP adapter never needs (bench/README.md, "Measured figures"). */
const HEAVY = [
  'mongodb',
  'class-validator',
  'class-transformer',
  'inversify',
  'class-validator-jsonschema',
  'swagger-ui-dist',
  'socket.io',
  'socket.io-adapter',
  '@casl/ability',
];

describe('the package entry point loads heavy libraries on first use only', () => {
  it(
    'importing everything loads neither the driver, nor ' + 'class-validator, nor Inversify, nor socket.io, nor CASL',
    () => {
      const loaded = packagesLoadedBy(`Promise.resolve().then(() => require('./src'))`);
      expect(loaded).toEqual(expect.arrayContaining(['express', 'mingo']));
      for (const name of HEAVY) expect(loaded).not.toContain(name);
    },
    60_000,
  );

  it('validation hooks and ObjectId decorators load class-validator when they are made', () => {
    const loaded = packagesLoadedBy(`Promise.resolve().then(() => {
      const { validateData, IsObjectId } = require('./src');
      class Dto {}
      validateData(Dto);
      IsObjectId()(Dto.prototype, 'owner');
    })`);
    expect(loaded).toEqual(expect.arrayContaining(['class-validator', 'class-transformer']));
    expect(loaded).not.toContain('mongodb');
  }, 60_000);

  it('the composed application on STORE=memory does not load the driver', () => {
    const loaded = packagesLoadedBy(`Promise.resolve().then(async () => {
      const { composeApplication, loadConfig } = require('./src');
      const composed = await composeApplication(loadConfig({ NODE_ENV: 'test', STORE: 'memory', LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '10' }));
      await composed.close();
    })`);
    expect(loaded).toEqual(expect.arrayContaining(['inversify', 'express', 'mingo']));
    expect(loaded).not.toContain('mongodb');
    // The remote bindings' connection pool loads with the first binding.
    expect(loaded).not.toContain('undici');
  }, 60_000);

  it(
    'the OpenAPI schema library loads only when the document is built ' +
      '(DOCS=true); the page files only when served',
    () => {
      const compose = (docs: string) => `Promise.resolve().then(async () => {
      const { composeApplication, loadConfig } = require('./src');
      const composed = await composeApplication(loadConfig({ NODE_ENV: 'test', STORE: 'memory', LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '10', DOCS: '${docs}' }));
      await composed.close();
    })`;
      const withoutDocs = packagesLoadedBy(compose('false'));
      expect(withoutDocs).toContain('class-validator');
      expect(withoutDocs).not.toContain('class-validator-jsonschema');
      const withDocs = packagesLoadedBy(compose('true'));
      expect(withDocs).toContain('class-validator-jsonschema');
      // swagger-ui-dist is only located (require.resolve); its files are read when requested.
      expect(withDocs).not.toContain('swagger-ui-dist');
    },
    120_000,
  );

  it('startEmbeddedMongo loads the server on its first call', () => {
    const loaded = packagesLoadedBy(`Promise.resolve().then(async () => {
      const { startEmbeddedMongo } = require('./src');
      const server = await startEmbeddedMongo({ host: '127.0.0.1', port: 0 });
      await server.stop();
    })`);
    expect(loaded).toEqual(expect.arrayContaining(['bson', 'mingo']));
    expect(loaded).not.toContain('mongodb');
  }, 60_000);
});
