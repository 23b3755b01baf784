import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_DIR, bundleServerEntries } from './bundle-servers';
import { diffLockFiles } from './lock-file-diff';

/** The servers `--against` can run from the other tree: the framework's sides of the http and realtime suites. */
export type AgainstServer = 'framework-server' | 'realtime-server';

/** The framework at another commit, checked out and bundled for `--against`. */
export interface AgainstTree {
  /** The ref as given on the command line, e.g. `d9abeb5` or `HEAD~3`. */
  ref: string;
  commit: string;
  /** Bundles of that tree's own bench servers (its bench/servers/*.ts and its src/), those the run needs. */
  scripts: Partial<Record<AgainstServer, string>>;
  /** What the harness should say about the setup (lock file, protocol), printed and recorded. */
  notes: string[];
  /** Removes the checkout; also runs when the process exits, however it exits. */
  remove(): void;
}

const REPO = path.dirname(BENCH_DIR);

function git(args: string[], cwd = REPO): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function resolveCommit(ref: string): string {
  try {
    return git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim();
  } catch {
    throw new Error(
      `--against: '${ref}' is not a commit of this repository (git rev-parse ${ref}^{commit} found nothing)`,
    );
  }
}

/**
 * The other tree runs with this tree's node_modules, so its runtime packages must be the ones
 * installed here: refuses when they are not, warns about dev-only differences.
 */
function checkLockFile(ref: string, commit: string): string[] {
  const thisLock = readFileSync(path.join(REPO, 'package-lock.json'), 'utf8');
  let otherLock: string;
  try {
    otherLock = git(['show', `${commit}:package-lock.json`]);
  } catch {
    throw new Error(
      `--against: ${ref} has no package-lock.json, so whether this tree's node_modules fit it cannot be checked`,
    );
  }
  if (otherLock === thisLock)
    return [`package-lock.json is the same in both trees; ${ref} runs with this tree's node_modules`];
  const diff = diffLockFiles(thisLock, otherLock);
  if (diff.runtime.length > 0) {
    throw new Error(
      `--against: ${ref} pins ${diff.runtime.length} runtime package(s) at versions not installed here ` +
        `(${diff.runtime.slice(0, 5).join('; ')}${diff.runtime.length > 5 ? '; ...' : ''}). ` +
        `Its checkout borrows this tree's node_modules, so it would run with this tree's versions and the comparison ` +
        `would mix the two changes. ` +
        `Compare across a dependency change with two clones, each with its own npm ci.`,
    );
  }
  const devOnly =
    diff.devOnly.length > 0
      ? `; dev-only packages differ ` +
        `(${diff.devOnly.slice(0, 3).join('; ')}${diff.devOnly.length > 3 ? '; ...' : ''}), none of them runs in the ` +
        `framework's servers`
      : '';
  return [
    `package-lock.json differs between the trees but every runtime package ${ref} installs is installed here at its ` +
      `version${devOnly}; ${ref} runs with this tree's node_modules`,
  ];
}

/**
 * Checks `ref` out in a temporary git worktree outside the repository (detached: no branch is
 * made or moved, the index of this tree is not touched), links this tree's node_modules into it
 * and bundles its own bench servers, with the same esbuild settings as this tree's, into a build
 * folder inside that checkout (packages resolve through the link). The checkout is removed by
 * `remove()`, and at process exit if the run ends otherwise (errors, the time limit, Ctrl-C).
 */
export async function prepareAgainstTree(
  ref: string,
  servers: AgainstServer[],
  log: (line: string) => void,
): Promise<AgainstTree> {
  const commit = resolveCommit(ref);
  const notes = checkLockFile(ref, commit);
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'bench-against-'));
  const tree = path.join(tempDir, 'tree');
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      git(['worktree', 'remove', '--force', tree]);
    } catch {
      // Not registered (the add failed) or already gone: the folder below is all that is left.
    }
    rmSync(tempDir, { recursive: true, force: true });
    try {
      git(['worktree', 'prune']);
    } catch {
      // Nothing to prune.
    }
  };
  process.once('exit', remove);
  try {
    log(`bench: checking out ${ref} (${commit.slice(0, 12)}) in ${tree}`);
    git(['worktree', 'add', '--detach', tree, commit]);
    symlinkSync(path.join(REPO, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
    const missing = servers.filter((name) => !existsSync(path.join(tree, 'bench', 'servers', `${name}.ts`)));
    if (missing.length > 0)
      throw new Error(
        `--against: ${ref} has no ${missing.map((name) => `bench/servers/${name}.ts`).join(' or ')} to run`,
      );
    // The harness speaks this tree's protocol to both versions (settings in the environment, ready/stop over IPC).
    const protocol = 'bench/servers/server-protocol.ts';
    if (
      !existsSync(path.join(tree, protocol)) ||
      readFileSync(path.join(tree, protocol), 'utf8') !== readFileSync(path.join(REPO, protocol), 'utf8')
    ) {
      notes.push(`${protocol} differs at ${ref}: this harness drives that tree's servers with this tree's protocol`);
    }
    const scripts = await bundleServerEntries({
      root: tree,
      outdir: path.join(tree, 'bench', 'results', 'build'),
      servers,
    });
    return { ref, commit, scripts, notes, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** The bundle of `name` from the `--against` tree (prepared for the suites that run). */
export function againstScript(against: Pick<AgainstTree, 'ref' | 'scripts'>, name: AgainstServer): string {
  const script = against.scripts[name];
  if (!script) throw new Error(`--against: ${name} of ${against.ref} was not bundled for this run`);
  return script;
}
