import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Resident set size of a process in bytes: /proc on Linux, `ps` elsewhere. */
export function residentBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kilobytes = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    if (kilobytes) return Number(kilobytes) * 1024;
  } catch {
    // Not Linux: fall through to ps.
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}
