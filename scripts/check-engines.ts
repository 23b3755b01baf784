import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';

/**
 * `npm run check:engines [-- <project folder>]`: the project's declared Node range (`engines.node`)
 * must be one that every installed package accepts, and must include the Node running this check
 * (CI runs it, so the range is what CI runs). Prints one line per conflict and exits 1 on any.
 * Installed packages are the lock file's entries present in node_modules (optional packages of
 * other platforms are not installed, so they are not checked).
 */
interface PackageManifest {
  name?: string;
  version?: string;
  engines?: { node?: string };
}

function readManifest(file: string): PackageManifest {
  return JSON.parse(readFileSync(file, 'utf8')) as PackageManifest;
}

function installedPackageFolders(root: string): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages?: Record<string, unknown>;
  };
  return Object.keys(lock.packages ?? {})
    .filter((key) => key.startsWith('node_modules/') || key.includes('/node_modules/'))
    .filter((key) => existsSync(join(root, key, 'package.json')));
}

function engineConflicts(root: string, declared: string): string[] {
  const conflicts: string[] = [];
  if (!semver.satisfies(process.version, declared))
    conflicts.push(`engines: this check runs on Node ${process.version}, outside the declared range ${declared}`);
  for (const folder of installedPackageFolders(root)) {
    const manifest = readManifest(join(root, folder, 'package.json'));
    const accepted = manifest.engines?.node;
    if (typeof accepted !== 'string') continue;
    const name = `${manifest.name ?? folder}@${manifest.version ?? '?'}`;
    if (semver.validRange(accepted) === null)
      conflicts.push(`engines: ${name} (${folder}) declares an unreadable Node range "${accepted}"`);
    else if (!semver.subset(declared, accepted))
      conflicts.push(`engines: ${name} (${folder}) needs Node ${accepted}, narrower than the declared ${declared}`);
  }
  return conflicts;
}

function main(): void {
  const root = resolve(process.argv[2] ?? '.');
  const declared = readManifest(join(root, 'package.json')).engines?.node;
  if (declared === undefined || semver.validRange(declared) === null) {
    console.error('engines: package.json declares no readable engines.node range');
    process.exit(1);
  }
  const conflicts = engineConflicts(root, declared);
  for (const line of conflicts) console.error(line);
  if (conflicts.length > 0) process.exit(1);
  console.log(`engines: every installed package accepts Node ${declared}, and this Node (${process.version}) is in it`);
}

main();
