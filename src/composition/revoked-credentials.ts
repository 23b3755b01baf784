import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ServiceCredentialChecks } from '../adapters/passport';
import type { LoggerPort } from '../ports/logger.port';
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
export function revokedCredentials(config: Pick<AppConfig, 'dataDir' | 'revokedServiceCredentials'>): {
  isRevoked(credentialId: string): boolean;
} {
  const fromEnvironment = new Set(config.revokedServiceCredentials.map(normalizeCredentialId));
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
    fromFile = new Set(readFileSync(file, 'utf8').split('\n').map(normalizeCredentialId).filter(Boolean));
  };
  return {
    isRevoked(credentialId) {
      refresh();
      const id = normalizeCredentialId(credentialId);
      return fromEnvironment.has(id) || fromFile.has(id);
    },
  };
}

/**
 * Credentials refused for lacking scopes that are logged at most (one line each), so a caller retrying cannot flood the
 * log.
 */
const MAX_LOGGED_UNSCOPED = 100;

/**
 * How this server judges the service credentials it issued: revocation (above), and one log line
 * per credential that is refused for having been issued before credentials named their services,
 * saying how to replace it.
 */
export function serviceCredentialChecks(
  config: Pick<AppConfig, 'dataDir' | 'revokedServiceCredentials'>,
  logger: LoggerPort,
): ServiceCredentialChecks {
  const revoked = revokedCredentials(config);
  const logged = new Set<string>();
  return {
    isRevoked: (credentialId) => revoked.isRevoked(credentialId),
    refusedUnscoped({ name, credentialId }) {
      if (logged.has(credentialId) || logged.size >= MAX_LOGGED_UNSCOPED) return;
      logged.add(credentialId);
      logger.warn(
        { credentialId, caller: name },
        `refused the service credential ${credentialId} of "${name}": it names no services. Issue a new one with ` +
          `\`npm run service-credential -- ${name} --services <service,...>\`, give it to that server as ` +
          `<SERVICE>_REMOTE_TOKEN, ` +
          `then revoke the old one with \`npm run service-credential -- --revoke ${credentialId}\``,
      );
    },
  };
}

/**
 * Credential ids are UUIDs, which compare case-insensitively: every id is lower-cased where it is
 * read and where it is checked, so an id revoked in upper case still revokes (revocation never
 * fails open on spelling).
 */
export function normalizeCredentialId(id: string): string {
  return id.trim().toLowerCase();
}

/** Adds a credential id to `DATA_DIR`'s revocation file. */
export function revokeCredential(dataDir: string, credentialId: string): string {
  if (dataDir === ':memory:')
    throw new Error(
      'DATA_DIR is :memory:, so there is no revocation file: set SERVICE_CREDENTIALS_REVOKED on the server instead',
    );
  const file = path.resolve(dataDir, REVOKED_CREDENTIALS_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, `${normalizeCredentialId(credentialId)}\n`, { mode: 0o600 });
  return file;
}
