import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/composition/load-config';
import { REVOKED_CREDENTIALS_FILE, revokedCredentials } from '../../../src/composition/revoked-credentials';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('revoked service credentials compare ids whatever their case (issue 25, finding 9)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'revoked-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('from the environment', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: ':memory:',
      SERVICE_CREDENTIALS_REVOKED: ` ${ID.toUpperCase()} `,
    });
    expect(config.revokedServiceCredentials).toEqual([ID]);
    expect(revokedCredentials(config).isRevoked(ID)).toBe(true);
    expect(revokedCredentials(config).isRevoked(ID.toUpperCase())).toBe(true);
  });

  it('from the revocation file, written by hand in upper case', () => {
    writeFileSync(path.join(dataDir, REVOKED_CREDENTIALS_FILE), `${ID.toUpperCase()}\r\n`);
    const revoked = revokedCredentials({ dataDir, revokedServiceCredentials: [] });
    expect(revoked.isRevoked(ID)).toBe(true);
    expect(revoked.isRevoked('1f8fad5b-d9cb-469f-a165-70867728950e')).toBe(false);
  });
});
