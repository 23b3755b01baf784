const UNITS: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `1mb`, `512kb`, `100` or a number of bytes -> bytes. Invalid values throw at start-up, not per request. */
export function parseByteSize(size: string | number): number {
  if (typeof size === 'number') {
    if (!Number.isSafeInteger(size) || size < 0) throw new Error(`Invalid byte size ${size}`);
    return size;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(size);
  if (!match) throw new Error(`Invalid byte size '${size}'`);
  return Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]);
}
