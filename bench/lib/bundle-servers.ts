import path from 'node:path';
import { build } from 'esbuild';

export const BENCH_DIR = path.resolve(__dirname, '..');
export const RESULTS_DIR = path.join(BENCH_DIR, 'results');
const BUILD_DIR = path.join(RESULTS_DIR, 'build');

export type ServerName = 'framework-server' | 'express-server' | 'node-server' | 'fastify-server' | 'mongo-server' | 'realtime-server' | 'socketio-server';
const SERVERS: ServerName[] = ['framework-server', 'express-server', 'node-server', 'fastify-server', 'mongo-server', 'realtime-server', 'socketio-server'];

/**
 * Bundles the server children to plain JavaScript, so that they run as an application would in
 * production: no TypeScript loader in the process (it would add to RSS and to CPU profiles), no
 * code esbuild adds that the TypeScript build does not.
 * Packages stay external and resolve from the project's node_modules.
 */
export async function bundleServers(): Promise<Record<ServerName, string>> {
  await build({
    entryPoints: {
      ...Object.fromEntries(SERVERS.map((name) => [name, path.join(BENCH_DIR, 'servers', `${name}.ts`)])),
      // startEmbeddedMongo runs the server in a worker thread and looks for this beside the bundle.
      'worker-entry': path.join(BENCH_DIR, '..', 'src', 'embedded-mongo', 'hosting', 'worker-entry.ts'),
    },
    outdir: BUILD_DIR,
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
  return Object.fromEntries(SERVERS.map((name) => [name, path.join(BUILD_DIR, `${name}.js`)])) as Record<ServerName, string>;
}
