import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

export const BENCH_DIR = path.resolve(__dirname, '..');
export const RESULTS_DIR = path.join(BENCH_DIR, 'results');
const BUILD_DIR = path.join(RESULTS_DIR, 'build');

export type ServerName =
  | 'framework-server'
  | 'express-server'
  | 'node-server'
  | 'fastify-server'
  | 'mongo-server'
  | 'realtime-server'
  | 'socketio-server';
const SERVERS: ServerName[] = [
  'framework-server',
  'express-server',
  'node-server',
  'fastify-server',
  'mongo-server',
  'realtime-server',
  'socketio-server',
];

/**
 * Bundles the server children to plain JavaScript, so that they run as an application would in
 * production: no TypeScript loader in the process (it would add to RSS and to CPU profiles), no
 * code esbuild adds that the TypeScript build does not.
 * Packages stay external and resolve from the project's node_modules.
 */
export async function bundleServers(): Promise<Record<ServerName, string>> {
  return bundleServerEntries({ root: path.dirname(BENCH_DIR), outdir: BUILD_DIR, servers: SERVERS });
}

export interface BundleOptions<Name extends ServerName> {
  /** The project tree whose `bench/servers/<name>.ts` (and whose `src/`) are bundled. */
  root: string;
  outdir: string;
  servers: readonly Name[];
}

/**
 * Bundles `servers` of the tree at `root` into `outdir`, with the same settings for every tree,
 * so that two versions of the framework (`--against`) are built alike. Packages stay external:
 * they resolve at run time from the node_modules above `outdir`.
 */
export async function bundleServerEntries<Name extends ServerName>(
  options: BundleOptions<Name>,
): Promise<Record<Name, string>> {
  // startEmbeddedMongo runs the server in a worker thread and looks for this beside the bundle
  // (an older tree may not have it: its framework server then has no database store to host).
  const workerEntry = path.join(options.root, 'src', 'embedded-mongo', 'hosting', 'worker-entry.ts');
  await build({
    entryPoints: {
      ...Object.fromEntries(
        options.servers.map((name) => [name, path.join(options.root, 'bench', 'servers', `${name}.ts`)]),
      ),
      ...(existsSync(workerEntry) ? { 'worker-entry': workerEntry } : {}),
    },
    outdir: options.outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    sourcemap: true,
    // No keepNames: it wraps every named closure in a `__name(fn, ...)` call each time the closure
    // is made, a cost the bundled framework paid per request and the external packages (Express,
    // Fastify) did not, and that `npm run build` (tsc) does not add. Nothing here reads `fn.name`.
    keepNames: false,
    logLevel: 'error',
  });
  return Object.fromEntries(options.servers.map((name) => [name, path.join(options.outdir, `${name}.js`)])) as Record<
    Name,
    string
  >;
}
