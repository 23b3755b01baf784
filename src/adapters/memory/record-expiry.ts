/** A TTL index as the memory store keeps it: a record whose `field` holds a date at least `seconds` old has expired. */
export interface RecordExpiry {
  readonly field: string;
  readonly seconds: number;
}

/** How often the memory store looks for expired records (MongoDB's TTL monitor runs every 60 s too). */
export const EXPIRY_SWEEP_MS = 60_000;

/**
 * MongoDB's TTL rule: a record expires `seconds` after the date in `field`, or after the earliest
 * date of an array there; a record whose field holds no date never expires.
 */
export function hasExpired(record: Record<string, unknown>, expiries: readonly RecordExpiry[], now: number): boolean {
  return expiries.some(({ field, seconds }) => {
    const value = record[field];
    const dates = (Array.isArray(value) ? value : [value]).filter((item): item is Date => item instanceof Date);
    return dates.some((date) => date.getTime() + seconds * 1000 <= now);
  });
}
