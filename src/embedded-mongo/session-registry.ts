import { createHash } from 'node:crypto';
import { Binary, type Document } from 'bson';
import { LOGICAL_SESSION_TIMEOUT_MINUTES } from './base/server-identity';
import type { TransactionManager } from './transactions/transaction-manager';

/** Without authentication every session belongs to the same user: the hash of the empty name. */
const ANONYMOUS_UID = new Binary(createHash('sha256').update('').digest(), 0);
const TIMEOUT_MS = LOGICAL_SESSION_TIMEOUT_MINUTES * 60 * 1000;

interface SessionEntry {
  readonly id: unknown;
  /** Epoch ms: every command of the session sets it, a Date is made only when it is listed. */
  lastUse: number;
}

/**
 * Logical sessions seen in commands' `lsid`, for `$listLocalSessions` and expiry, and their
 * transactions: a session that ends or expires takes its open transaction with it.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, SessionEntry>();

  constructor(readonly transactions: TransactionManager) {}

  touch(lsid: unknown): void {
    const key = sessionKey(lsid);
    if (key === undefined) return;
    const entry = this.sessions.get(key);
    if (entry) entry.lastUse = Date.now();
    else this.sessions.set(key, { id: (lsid as Document).id, lastUse: Date.now() });
  }

  end(lsids: readonly unknown[]): void {
    for (const lsid of lsids) {
      const key = sessionKey(lsid);
      if (key === undefined) continue;
      this.sessions.delete(key);
      this.transactions.endSession(key);
    }
  }

  /** Live sessions in the `$listLocalSessions` shape; expired ones are dropped on the way. */
  list(now = Date.now()): Document[] {
    const out: Document[] = [];
    for (const [key, entry] of this.sessions) {
      if (now - entry.lastUse > TIMEOUT_MS) {
        this.sessions.delete(key);
        this.transactions.endSession(key);
      } else {
        out.push({ _id: { id: entry.id, uid: ANONYMOUS_UID }, lastUse: new Date(entry.lastUse) });
      }
    }
    return out;
  }

  close(): void {
    this.transactions.close();
  }
}

/** The session's identity as a map key: the hex of its `lsid.id` UUID (read in place, not copied). */
export function sessionKey(lsid: unknown): string | undefined {
  const id = lsid && typeof lsid === 'object' ? (lsid as Document).id : undefined;
  if (!(id instanceof Binary)) return undefined;
  const bytes = id.buffer;
  return Buffer.from(bytes.buffer, bytes.byteOffset, id.position).toString('hex');
}
