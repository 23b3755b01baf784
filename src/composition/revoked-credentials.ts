import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './app-config';

export const REVOKED_CREDENTIALS_FILE = 'revoked-service-credentials';

/** How often a running server looks at the revocation file again (once per check at most this often). */
const RECHECK_MS = 1_000;

/**
 * The ids of revoked service credentials: `SERVICE_CREDENTIALS_REVOKED`, plus the lines of
 * `DATA_DIR/revoked-service-credentials`, which `npm run service-credential -- --revoke <id>`
 * appends to and a running server re-reads within a second (its modification time is checked,
 * at most once a second, on verification).
 */
export function revokedCredentials(config: Pick<AppConfig, 'dataDir' | 'revokedServiceCredentials'>): { isRevoked(credentialId: string): boolean } {
  const fromEnvironment = new Set(config.revokedServiceCredentials);
  const file = config.dataDir === ':memory:' ? undefined : path.resolve(config.dataDir, REVOKED_CREDENTIALS_FILE);
  let fromFile = new Set<string>();
  let modified = -1;
  let checkedAt = -Infinity;
  const refresh = () => {
    if (!file || Date.now() - checkedAt < RECHECK_MS) return;
    checkedAt = Date.now();
    let mtime: number;
    try {
      mtime = statSync(file).mtimeMs;
    } catch {
      fromFile = new Set();
      return;
    }
    if (mtime === modified) return;
    modified = mtime;
    fromFile = new Set(readFileSync(file, 'utf8').split('\n').map((line) => line.trim()).filter(Boolean));
  };
  return {
    isRevoked(credentialId) {
      refresh();
      return fromEnvironment.has(credentialId) || fromFile.has(credentialId);
    },
  };
}

/** Adds a credential id to `DATA_DIR`'s revocation file. */
export function revokeCredential(dataDir: string, credentialId: string): string {
  if (dataDir === ':memory:') throw new Error('DATA_DIR is :memory:, so there is no revocation file: set SERVICE_CREDENTIALS_REVOKED on the server instead');
  const file = path.resolve(dataDir, REVOKED_CREDENTIALS_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, `${credentialId}\n`, { mode: 0o600 });
  return file;
}
