import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from './app-config';

export const AUTH_SECRET_FILE = 'auth-secret';
const MIN_BYTES = 32;

const generate = () => randomBytes(48).toString('base64url');

/**
 * The token signing secret: `AUTH_SECRET` when set (load-config requires it in production);
 * otherwise one generated once and kept in `DATA_DIR/auth-secret` (mode 0600), so tokens
 * survive restarts in development; with `DATA_DIR=:memory:` a fresh one per process.
 */
export async function resolveAuthSecret(
  config: Pick<AppConfig, 'authSecret' | 'nodeEnv' | 'dataDir'>,
): Promise<string> {
  if (config.authSecret) return config.authSecret;
  if (config.nodeEnv === 'production') throw new Error('AUTH_SECRET must be set when NODE_ENV=production');
  if (config.dataDir === ':memory:') return generate();
  const file = path.resolve(config.dataDir, AUTH_SECRET_FILE);
  const existing = await readSecret(file);
  if (existing !== undefined) return existing;
  await mkdir(path.dirname(file), { recursive: true });
  // Written aside, then linked into place: when two processes start together, neither ever
  // sees a half-written file, and the second keeps the first one's secret.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(temporary, `${generate()}\n`, { flag: 'wx', mode: 0o600 });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  const written = await readSecret(file);
  if (written === undefined)
    throw new Error(`${file} does not hold a secret of at least ${MIN_BYTES} bytes; delete it to get a new one`);
  return written;
}

async function readSecret(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const secret = text.trim();
  if (Buffer.byteLength(secret) < MIN_BYTES)
    throw new Error(`${file} does not hold a secret of at least ${MIN_BYTES} bytes; delete it to get a new one`);
  return secret;
}
