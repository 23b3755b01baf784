import { Long, type Document } from 'bson';
import { CommandError } from '../base/command-error';

/** `txnNumber` of a transaction command; the driver sends an Int64. */
export function transactionNumber(command: Document): number {
  const raw: unknown = command.txnNumber;
  if (raw instanceof Long) return raw.toNumber();
  if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
  if (typeof raw === 'bigint') return Number(raw);
  throw new CommandError('InvalidOptions', "a transaction requires 'txnNumber'");
}

export function requireSession(key: string | undefined): string {
  if (key === undefined) throw new CommandError('InvalidOptions', "a transaction requires 'lsid'");
  return key;
}
