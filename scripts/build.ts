import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleChatScript, PREBUILT_CHAT_SCRIPT } from '../src/examples/chat-page/bundle-chat-script';

/**
 * `npm run build [-- --out-dir <folder>]` (default `dist`): the compiled package, plus the chat
 * page's browser script bundled beside the compiled page, so that `npm run start:prod` needs no
 * dev dependency (no TypeScript loader, no bundler).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string', default: 'dist' } } });
  const outDir = path.resolve(values['out-dir']);
  const root = path.resolve(__dirname, '..');
  const compiled = spawnSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir],
    { cwd: root, stdio: 'inherit' },
  );
  if (compiled.status !== 0) throw new Error('tsc failed');
  writeFileSync(path.join(outDir, 'examples', 'chat-page', PREBUILT_CHAT_SCRIPT), await bundleChatScript());
  console.log(`built ${outDir}`);
}

main().catch((error: Error) => {
  console.error(`build: ${error.message}`);
  process.exit(1);
});
