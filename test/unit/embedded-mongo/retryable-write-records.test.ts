import { Catalog } from '../../../src/embedded-mongo/storage/catalog';
import { MemoryStorageEngine } from '../../../src/embedded-mongo/storage/memory-storage-engine';
import { TransactionManager } from '../../../src/embedded-mongo/transactions/transaction-manager';

describe('TransactionManager: what a retryable write ran under its number', () => {
  let transactions: TransactionManager;
  beforeEach(() => {
    transactions = new TransactionManager(new Catalog(new MemoryStorageEngine()));
  });
  afterEach(() => transactions.close());

  it('answers a retry with the recorded reply; a newer number is new; an older one is TransactionTooOld', () => {
    const written = { reply: { n: 1, ok: 1 } };
    expect(transactions.retryableWrite('s', 3)).toBeUndefined();
    transactions.recordRetryableWrite('s', 3, written);
    expect(transactions.retryableWrite('s', 3)).toBe(written);
    expect(transactions.retryableWrite('s', 4)).toBeUndefined();
    expect(() => transactions.retryableWrite('s', 2)).toThrow(
      expect.objectContaining({ codeName: 'TransactionTooOld' }),
    );
    expect(transactions.retryableWrite('other', 3)).toBeUndefined();
  });

  it('a retryable write with a newer number aborts the session open transaction, as a newer transaction does', () => {
    transactions.statement('s', 1, true);
    expect(transactions.openCount).toBe(1);
    transactions.recordRetryableWrite('s', 2, { reply: { n: 1, ok: 1 } });
    expect(transactions.openCount).toBe(0);
    expect(() => transactions.statement('s', 1, false)).toThrow(
      expect.objectContaining({ codeName: 'NoSuchTransaction' }),
    );
  });

  it('the number of a transaction is no retryable write: sent as one, it is IncompleteTransactionHistory', () => {
    transactions.statement('s', 5, true);
    expect(() => transactions.retryableWrite('s', 5)).toThrow(
      expect.objectContaining({ codeName: 'IncompleteTransactionHistory' }),
    );
  });

  it('records go with their session (ended, or idle as long as a logical session lives)', () => {
    transactions.recordRetryableWrite('ended', 1, { reply: { ok: 1 } });
    transactions.endSession('ended');
    expect(transactions.retryableWrite('ended', 1)).toBeUndefined();
    transactions.recordRetryableWrite('idle', 1, { reply: { ok: 1 } });
    transactions.abortIdle(Date.now() + 29 * 60_000);
    expect(transactions.retryableWrite('idle', 1)).toBeDefined();
    transactions.abortIdle(Date.now() + 31 * 60_000);
    expect(transactions.retryableWrite('idle', 1)).toBeUndefined();
  });
});
