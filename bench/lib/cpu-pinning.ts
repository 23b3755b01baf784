import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** Servers run on this core, the load generator (this process) on the other. */
export const SERVER_CORE = 0;
export const LOAD_CORE = 1;

export interface Pinning {
  /** Whether servers and load are on separate cores. */
  readonly enabled: boolean;
  readonly note: string;
  /** The command and leading arguments that start a server child on its core. */
  serverCommand(nodeArgs: string[]): { command: string; args: string[] };
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Pins this process (all its threads) to the load core when `taskset` exists and the machine has
 * at least two cores; otherwise everything shares the cores and the report says so.
 */
export function setUpPinning(): Pinning {
  const cores = os.availableParallelism();
  const plain: Pinning = {
    enabled: false,
    note:
      cores < 2 ? `only ${cores} core: server and load share it` : 'taskset not found: server and load are not pinned',
    serverCommand: (nodeArgs) => ({ command: process.execPath, args: nodeArgs }),
  };
  if (cores < 2 || !hasTaskset()) return plain;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(LOAD_CORE), String(process.pid)], { stdio: 'ignore' });
  } catch {
    return { ...plain, note: 'taskset could not pin the load generator: not pinned' };
  }
  return {
    enabled: true,
    note: `server children on core ${SERVER_CORE}, load generator on core ${LOAD_CORE} (taskset), ${cores} cores`,
    serverCommand: (nodeArgs) => ({
      command: 'taskset',
      args: ['-c', String(SERVER_CORE), process.execPath, ...nodeArgs],
    }),
  };
}
