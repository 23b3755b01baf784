import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/** A project folder with a lock file and the installed packages' manifests, as `npm ci` leaves it. */
function project(declared: string, installed: Record<string, string | undefined>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'check-engines-'));
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'app', engines: { node: declared } }));
  const packages: Record<string, object> = { '': {} };
  for (const [key, accepted] of Object.entries(installed)) {
    packages[key] = {};
    mkdirSync(path.join(folder, key), { recursive: true });
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    writeFileSync(
      path.join(folder, key, 'package.json'),
      JSON.stringify({ name, version: '1.0.0', ...(accepted ? { engines: { node: accepted } } : {}) }),
    );
  }
  packages['node_modules/other-platform-binary'] = { optional: true };
  writeFileSync(path.join(folder, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages }));
  return folder;
}

function checkEngines(folder: string) {
  const run = spawnSync(process.execPath, ['-r', '@swc-node/register', 'scripts/check-engines.ts', folder], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe(
  'npm run check:engines: the declared Node range is one every ' + 'installed package accepts and this Node is in',
  () => {
    const folders: string[] = [];
    const made = (declared: string, installed: Record<string, string | undefined>) => {
      const folder = project(declared, installed);
      folders.push(folder);
      return folder;
    };
    afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

    it(
      'passes when every package accepts the whole range (packages without ' +
        'engines, and uninstalled optional ones, count as accepting)',
      () => {
        const run = checkEngines(
          made('^20.19.0 || ^22.13.0 || >=24', {
            'node_modules/wide': '>=18',
            'node_modules/lts-lines': '^20.19.0 || ^22.13.0 || >=24',
            'node_modules/no-engines': undefined,
          }),
        );
        expect(run).toMatchObject({ status: 0, stderr: '' });
        expect(run.stdout).toContain('every installed package accepts Node ^20.19.0 || ^22.13.0 || >=24');
      },
    );

    it('fails with one line per package that needs a narrower range, nested installs included', () => {
      const run = checkEngines(
        made('>=20.19', {
          'node_modules/fine': '>=18',
          'node_modules/light-my-request/node_modules/cookie': '>=22',
          'node_modules/skips-odd-lines': '^20.19.0 || >=22',
        }),
      );
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        'engines: cookie@1.0.0 (node_modules/light-my-request/node_modules/cookie) ' +
          'needs Node >=22, narrower than the declared >=20.19',
        'engines: skips-odd-lines@1.0.0 (node_modules/skips-odd-lines) needs Node ' +
          '^20.19.0 || >=22, narrower than the declared >=20.19',
      ]);
    });

    it('fails when the Node running the check (as CI does) is outside the declared range', () => {
      const run = checkEngines(made('>=99', {}));
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`engines: this check runs on Node ${process.version}, outside the declared range >=99\n`);
    });

    it('fails on an unreadable range, naming the package', () => {
      const run = checkEngines(made('>=20.19', { 'node_modules/odd': 'twenty or later' }));
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        'engines: odd@1.0.0 (node_modules/odd) declares an unreadable Node range "twenty or later"',
      );
    });

    it('holds for this repository as installed', () => {
      expect(checkEngines(root)).toMatchObject({ status: 0, stderr: '' });
    });
  },
);
