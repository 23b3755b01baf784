import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';

const PACKAGE = path.resolve(__dirname, '../packages/client');

/**
 * `npm run build:client`: `packages/client/dist`, which `npm pack ./packages/client` packs. The
 * bundles carry what they use (qs, eventemitter3), so the package installs no dependency: ESM
 * (`index.mjs`), CommonJS (`index.cjs`), and a browser script defining `HexaServicesClient`; the
 * declarations come from tsc and name no other package.
 */
async function main(): Promise<void> {
  const dist = path.join(PACKAGE, 'dist');
  rmSync(dist, { recursive: true, force: true });
  const common: BuildOptions = {
    entryPoints: [path.join(PACKAGE, 'src/index.ts')],
    bundle: true,
    platform: 'browser',
    target: 'es2020',
    logLevel: 'warning',
    legalComments: 'none',
  };
  await Promise.all([
    build({ ...common, format: 'esm', outfile: path.join(dist, 'index.mjs') }),
    build({ ...common, format: 'cjs', outfile: path.join(dist, 'index.cjs') }),
    build({
      ...common,
      format: 'iife',
      globalName: 'HexaServicesClient',
      minify: true,
      outfile: path.join(dist, 'hexa-services-client.js'),
    }),
  ]);
  const declarations = spawnSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', path.join(PACKAGE, 'tsconfig.json')],
    { stdio: 'inherit' },
  );
  if (declarations.status !== 0) throw new Error('tsc (declarations) failed');
  console.log(`built ${dist}`);
}

main().catch((error: Error) => {
  console.error(`build:client: ${error.message}`);
  process.exit(1);
});
