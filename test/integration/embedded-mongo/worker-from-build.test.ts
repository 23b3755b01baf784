import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = path.resolve(__dirname, '../../..');
const OUT = path.join(ROOT, '.tmp', `embedded-build-${process.pid}`);

function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? typescriptFiles(file) : file.endsWith('.ts') ? [file] : [];
  });
}

/**
 * The package's dist/ layout (one .js per source file, as `npm run build` writes it), made here
 * with esbuild for speed: a plain `node` with no TypeScript loader starts the worker thread from
 * the compiled `worker-entry.js`.
 */
describe('embedded mongo: the worker thread from compiled JavaScript', () => {
  afterAll(() => rmSync(OUT, { recursive: true, force: true }));

  it('starts, serves and stops without any TypeScript loader', () => {
    buildSync({
      entryPoints: typescriptFiles(path.join(ROOT, 'src/embedded-mongo')),
      outdir: OUT,
      outbase: path.join(ROOT, 'src'),
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
    });
    const script = `
      const { startEmbeddedMongo } = require(${JSON.stringify(path.join(OUT, 'embedded-mongo'))});
      const { MongoClient } = require('mongodb');
      (async () => {
        const server = await startEmbeddedMongo();
        const client = await MongoClient.connect(server.url);
        await client.db('built').collection('c').insertOne({ a: 1 });
        const count = await client.db('built').collection('c').countDocuments();
        await client.close();
        await server.stop();
        const typescript = Object.keys(require.cache).filter((file) => file.endsWith('.ts'));
        console.log(JSON.stringify({ count, typescript, register: process.execArgv.join(' ') }));
      })().catch((error) => { console.error(error.message); process.exit(1); });`;
    const probe = path.join(OUT, 'probe.js');
    writeFileSync(probe, script);
    const run = spawnSync(process.execPath, [probe], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout.trim())).toEqual({ count: 1, typescript: [], register: '' });
  }, 60_000);
});
