import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The LISTEN state in /proc/net/tcp's `st` column. */
const TCP_LISTEN = '0A';

/**
 * The TCP ports a process (every thread of it) listens on, from Linux's /proc: the process's open
 * sockets (`/proc/<pid>/fd` links `socket:[inode]`) matched against the listening sockets of its
 * network namespace (`/proc/<pid>/net/tcp`, `tcp6`), which list every process's, by inode.
 */
export function listeningTcpPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // closed between the listing and the read
    }
  }
  const ports = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    const lines = readFileSync(`/proc/${pid}/net/${table}`, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      if (state === TCP_LISTEN && inodes.has(inode)) ports.add(parseInt(local.split(':')[1], 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}
