/**
 * What differs between two package-lock.json files (lockfileVersion 2 or 3) for the code that
 * runs in a bench server. The `--against` tree borrows this tree's node_modules, so a runtime
 * package that the other tree pins at another version would silently run at this tree's version.
 */
interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
}

interface LockFile {
  lockfileVersion?: number;
  packages?: Record<string, LockEntry>;
}

export interface LockFileDiff {
  /**
   * Runtime (non-dev) packages of the other tree installed here at other versions, e.g. `express 5.1.0 (here 5.3.0)`.
   */
  runtime: string[];
  /**
   * Dev-only packages that differ (test and build tools, the baselines' packages): none of them runs in the framework's
   * servers.
   */
  devOnly: string[];
}

const packageName = (location: string) =>
  location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Package name -> the versions the lock file installs (hoisting may install one at several versions). */
function versionsByName(lock: LockFile, keep: (entry: LockEntry) => boolean): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const [location, entry] of Object.entries(lock.packages ?? {})) {
    if (location === '' || !entry.version || !keep(entry)) continue;
    const versions = result.get(packageName(location)) ?? new Set<string>();
    versions.add(entry.version);
    result.set(packageName(location), versions);
  }
  return result;
}

function parse(text: string, which: string): LockFile {
  const lock = JSON.parse(text) as LockFile;
  if (!lock.packages)
    throw new Error(
      `${which} package-lock.json has no "packages" section (lockfileVersion ${lock.lockfileVersion ?? '?'}; 2 or 3 ` +
        `needed)`,
    );
  return lock;
}

const allIn = (wanted: Set<string>, installed: Set<string> | undefined) =>
  installed !== undefined && [...wanted].every((version) => installed.has(version));

/**
 * A package differs when a version the other tree installs is not installed here. Compared by
 * package name, not by location, so that a package moved by hoisting does not count as a change. Packages only this
 * tree has do not count (the other tree never loads them), nor do optional ones of the other tree that this tree does
 * not install (another platform's binaries).
 */
export function diffLockFiles(thisTreeText: string, otherTreeText: string): LockFileDiff {
  const thisTree = parse(thisTreeText, "this tree's");
  const otherTree = parse(otherTreeText, "the other tree's");
  const runtime = (entry: LockEntry) => !entry.dev;
  // Dev packages are installed too: a runtime package there that is dev-only here still runs at the same version.
  const mineAll = versionsByName(thisTree, () => true);
  const [otherRuntime, otherAll] = [versionsByName(otherTree, runtime), versionsByName(otherTree, () => true)];
  const optionalThere = new Set(
    Object.entries(otherTree.packages ?? {})
      .filter(([, entry]) => entry.optional)
      .map(([location]) => packageName(location)),
  );
  const matters = (name: string) => mineAll.has(name) || !optionalThere.has(name);
  const describe = (name: string, versions: Set<string>) =>
    `${name} ${[...versions].join(', ')} (here ${[...(mineAll.get(name) ?? ['not installed'])].join(', ')})`;
  const runtimeDiffs = [...otherRuntime].filter(
    ([name, versions]) => matters(name) && !allIn(versions, mineAll.get(name)),
  );
  const devDiffs = [...otherAll].filter(
    ([name, versions]) => !otherRuntime.has(name) && matters(name) && !allIn(versions, mineAll.get(name)),
  );
  return {
    runtime: runtimeDiffs.map(([name, versions]) => describe(name, versions)),
    devOnly: devDiffs.map(([name, versions]) => describe(name, versions)),
  };
}
