import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The bundle `npm run build` writes beside the compiled page, so that production needs no bundler. */
export const PREBUILT_CHAT_SCRIPT = path.join('browser', 'chat-app.bundle.js');

/**
 * The page's script: the bundle the build wrote (run from dist/), or, run from the sources, bundled
 * now by esbuild (a dev dependency, loaded on the first request for the script).
 */
export async function chatScript(): Promise<string> {
  const prebuilt = path.join(__dirname, PREBUILT_CHAT_SCRIPT);
  return existsSync(prebuilt) ? readFile(prebuilt, 'utf8') : bundleChatScript();
}

/** The page's script bundled from the TypeScript sources by esbuild (the build calls it too). */
export async function bundleChatScript(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(__dirname, 'browser', 'chat-app.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
