import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The page's script, bundled from the TypeScript sources by esbuild (no build step; the caller
 * keeps the bundle in memory). esbuild loads on the first request for the script.
 */
export async function bundleChatScript(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    // The TypeScript source when run from src/, the compiled file when run from dist/.
    entryPoints: [['chat-app.ts', 'chat-app.js'].map((file) => path.join(__dirname, 'browser', file)).find((file) => existsSync(file)) ?? 'chat-app.ts'],
    bundle: true, platform: 'browser', format: 'iife', target: 'es2020', minify: true, write: false, logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
