import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { LOGICAL_SESSION_TIMEOUT_MINUTES } from '../base/server-identity';
import type { Catalog } from '../storage/catalog';
import { applyTransaction } from './apply-transaction';
import { CommitHistory } from './commit-history';
import { noSuchTransaction, writeConflict } from './transaction-errors';
import { Transaction, type WriteLocks } from './transaction';

/** mongod's transactionLifetimeLimitSeconds default. */
const DEFAULT_TIMEOUT_MS = 60_000;
/** Finished entries are kept (for repeated commits) as long as a logical session lives. */
const FINISHED_RETENTION_MS = LOGICAL_SESSION_TIMEOUT_MINUTES * 60_000;

/** A retryable write's reply, answered again to a retry, and when its writes are durable. */
export interface WrittenOnce {
  readonly reply: Document;
  readonly durable?: Promise<void>;
}

interface SessionTransactions {
  /** The session's latest transaction number: transactions and retryable writes share it, as in mongod. */
  txnNumber: number;
  state: 'open' | 'committed' | 'aborted' | 'written';
  transaction?: Transaction;
  /** Why it was aborted, for the NoSuchTransaction message. */
  reason?: string;
  finishedAt?: number;
  /** With state `written`: the retryable write this number ran. */
  written?: WrittenOnce;
}

/**
 * The transaction state machine of every session (keyed by lsid): start, statements, commit
 * (repeatable), abort, end of session, idle timeout; and each session's latest retryable write,
 * so that a retry of it is answered without running it again. Also the table of uncommitted
 * writes, where the first transaction to write a document holds it until it ends (others get
 * WriteConflict).
 */
export class TransactionManager implements WriteLocks {
  private readonly sessions = new Map<string, SessionTransactions>();
  private readonly locks = new Map<string, Transaction>();
  private readonly history = new CommitHistory();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly base: Catalog,
    private readonly idleTimeoutMs = DEFAULT_TIMEOUT_MS,
  ) {
    base.onChange((event) => this.history.observe(event));
    this.sweeper = setInterval(() => this.abortIdle(), Math.min(idleTimeoutMs, 1000));
    this.sweeper.unref();
  }

  claim(key: string, owner: Transaction): boolean {
    const holder = this.locks.get(key);
    if (holder && holder !== owner) return false;
    this.locks.set(key, owner);
    return true;
  }

  /** The transaction a statement with `autocommit: false` runs in, started when it says so. */
  statement(sessionKey: string, txnNumber: number, start: boolean): Transaction {
    const session = this.sessions.get(sessionKey);
    if (start) {
      if (session && txnNumber < session.txnNumber) {
        throw new CommandError(
          'TransactionTooOld',
          `txnNumber ${txnNumber} is less than last txnNumber ${session.txnNumber} seen in this session`,
        );
      }
      if (session && txnNumber === session.txnNumber) {
        throw new CommandError(
          'ConflictingOperationInProgress',
          `transaction ${txnNumber} has already been started on this session`,
        );
      }
      if (session?.state === 'open') this.finish(session, 'aborted', 'a newer transaction started');
      const transaction = new Transaction(txnNumber, this.base, this.history, this);
      this.sessions.set(sessionKey, { txnNumber, state: 'open', transaction });
      return transaction;
    }
    if (!session || session.txnNumber !== txnNumber) throw noSuchTransaction(txnNumber);
    if (session.state === 'committed')
      throw new CommandError('TransactionCommitted', `Transaction ${txnNumber} has been committed.`);
    if (!session.transaction) throw noSuchTransaction(txnNumber, session.reason);
    session.transaction.lastUse = Date.now();
    return session.transaction;
  }

  /**
   * Before a retryable write (a write with `txnNumber` outside a transaction): what it answered
   * when it already ran under this number (a retry), undefined when it is new; an older number
   * than the session's latest is refused, as mongod refuses it.
   */
  retryableWrite(sessionKey: string, txnNumber: number): WrittenOnce | undefined {
    const session = this.sessions.get(sessionKey);
    if (!session || txnNumber > session.txnNumber) return undefined;
    if (txnNumber < session.txnNumber) {
      throw new CommandError(
        'TransactionTooOld',
        `Retryable write with txnNumber ${txnNumber} is prohibited on this session because a newer retryable write ` +
          `with txnNumber ${session.txnNumber} has already started on this session.`,
      );
    }
    if (!session.written)
      throw new CommandError(
        'IncompleteTransactionHistory',
        `txnNumber ${txnNumber} on this session belongs to a transaction, not to a retryable write`,
      );
    return session.written;
  }

  /**
   * A retryable write ran under `txnNumber`: a newer number than an open transaction's aborts it, as a newer
   * transaction would.
   */
  recordRetryableWrite(sessionKey: string, txnNumber: number, written: WrittenOnce): void {
    const session = this.sessions.get(sessionKey);
    if (session?.state === 'open') this.finish(session, 'aborted', 'a newer retryable write started');
    this.sessions.set(sessionKey, { txnNumber, state: 'written', written, finishedAt: Date.now() });
  }

  /** A failed statement aborts its transaction, as in mongod. */
  abortAfterError(sessionKey: string, transaction: Transaction, reason: string): void {
    const session = this.sessions.get(sessionKey);
    if (session?.transaction === transaction) this.finish(session, 'aborted', reason);
  }

  /** Applies the writes atomically; committing again the same transaction succeeds again. */
  commit(sessionKey: string, txnNumber: number): void {
    const session = this.sessions.get(sessionKey);
    if (!session || session.txnNumber !== txnNumber) throw noSuchTransaction(txnNumber);
    if (session.state === 'committed') return;
    const transaction = session.transaction;
    if (!transaction) throw noSuchTransaction(txnNumber, session.reason);
    try {
      if (transaction.failure) throw transaction.failure;
      this.assertUnchangedSinceSnapshot(transaction);
      applyTransaction(this.base, transaction.events);
    } catch (error) {
      this.finish(session, 'aborted', `commit failed: ${(error as Error).message}`);
      throw error;
    }
    this.finish(session, 'committed');
  }

  abort(sessionKey: string, txnNumber: number): void {
    const session = this.sessions.get(sessionKey);
    if (!session || session.txnNumber !== txnNumber) throw noSuchTransaction(txnNumber);
    if (session.state === 'committed')
      throw new CommandError('TransactionCommitted', `Transaction ${txnNumber} has been committed.`);
    if (!session.transaction) throw noSuchTransaction(txnNumber, session.reason);
    this.finish(session, 'aborted', 'aborted by the client');
  }

  /** The session is gone (endSessions, expiry): its open transaction is aborted. */
  endSession(sessionKey: string): void {
    const session = this.sessions.get(sessionKey);
    if (session?.state === 'open') this.finish(session, 'aborted', 'the session ended');
    this.sessions.delete(sessionKey);
  }

  get openCount(): number {
    return [...this.sessions.values()].filter((session) => session.state === 'open').length;
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const key of [...this.sessions.keys()]) this.endSession(key);
  }

  abortIdle(now = Date.now()): void {
    for (const [key, session] of this.sessions) {
      if (session.transaction && now - session.transaction.lastUse > this.idleTimeoutMs) {
        this.finish(session, 'aborted', 'the transaction was idle longer than its timeout');
      } else if (session.finishedAt !== undefined && now - session.finishedAt > FINISHED_RETENTION_MS) {
        this.sessions.delete(key);
      }
    }
  }

  private assertUnchangedSinceSnapshot(transaction: Transaction): void {
    for (const namespace of transaction.namespaces) {
      if (this.history.namespaceChangedSince(namespace, transaction.snapshot))
        throw writeConflict(`collection ${namespace} changed`);
    }
    for (const [key, { namespace, id }] of transaction.written) {
      if (this.history.documentChangedSince(namespace, id, transaction.snapshot))
        throw writeConflict(`document ${key} changed`);
    }
  }

  private finish(session: SessionTransactions, state: 'committed' | 'aborted', reason?: string): void {
    const transaction = session.transaction;
    session.state = state;
    session.reason = reason;
    session.transaction = undefined;
    session.finishedAt = Date.now();
    if (!transaction) return;
    for (const key of transaction.written.keys()) if (this.locks.get(key) === transaction) this.locks.delete(key);
    transaction.release();
  }
}
