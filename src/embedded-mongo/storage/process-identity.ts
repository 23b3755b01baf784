import { readFileSync } from 'node:fs';

/**
 * Who owns a lock: a pid alone is ambiguous once its process is gone (the pid is reused, or a
 * container's entry process gets the same pid on every start), so Linux adds the process's start
 * time (clock ticks since boot, from /proc) and the boot id. Elsewhere only the pid is known.
 */
export interface ProcessIdentity {
  readonly pid: number;
  readonly startTicks?: string;
  readonly bootId?: string;
}

export function currentProcessIdentity(): ProcessIdentity {
  return { pid: process.pid, startTicks: readStat(process.pid)?.startTicks, bootId: readBootId() };
}

/**
 * True while the process that recorded `owner` still runs. A zombie (killed, not yet reaped by
 * its parent) has released everything and counts as gone; so does a live process with the same
 * pid but another start time or boot.
 */
export function isProcessAlive(owner: ProcessIdentity): boolean {
  const stat = readStat(owner.pid);
  if (stat) {
    if (stat.state === 'Z' || stat.state === 'X') return false;
    const bootId = readBootId();
    if (owner.bootId && bootId && owner.bootId !== bootId) return false;
    return owner.startTicks === undefined ? true : owner.startTicks === stat.startTicks;
  }
  if (procAvailable()) return false;
  // No /proc (macOS, Windows): the pid is all there is.
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface ProcStat {
  readonly state: string;
  readonly startTicks: string;
}

/** Fields of /proc/<pid>/stat after the command name (which may itself hold spaces and parentheses). */
function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 of proc(5) (state); field 22 (starttime) is fields[19].
  return fields.length > 19 ? { state: fields[0], startTicks: fields[19] } : undefined;
}

function readBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function procAvailable(): boolean {
  return readStat(process.pid) !== undefined;
}
