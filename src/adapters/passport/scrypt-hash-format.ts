/** scrypt's cost settings: N = 2^ln (CPU and memory), r (block size), p (parallelization). */
export interface ScryptParameters {
  ln: number;
  r: number;
  p: number;
}

/** A stored scrypt hash, decoded. */
export interface ScryptHash extends ScryptParameters {
  salt: Buffer;
  key: Buffer;
}

/** Bounds of what a stored hash may ask for, so a tampered one cannot claim gigabytes or minutes. */
const LIMITS = { ln: [10, 20], r: [1, 32], p: [1, 16], saltBytes: [16, 64], keyBytes: [32, 64] } as const;
const MAX_MEMORY_BYTES = 1024 ** 3;

const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Base64 without padding, as in the PHC string format. */
const encode = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/**
 * The self-describing stored form, `$scrypt$ln=17,r=8,p=1$<salt>$<key>` (base64 without padding):
 * each hash carries its own settings, so they can change without breaking stored passwords.
 */
export function formatScryptHash(hash: ScryptHash): string {
  return `$scrypt$ln=${hash.ln},r=${hash.r},p=${hash.p}$${encode(hash.salt)}$${encode(hash.key)}`;
}

/** The decoded hash, or undefined for anything that is not a well-formed one within the bounds. */
export function parseScryptHash(stored: string): ScryptHash | undefined {
  const match = FORMAT.exec(stored);
  if (!match) return undefined;
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const salt = decode(match[4]);
  const key = decode(match[5]);
  if (!salt || !key) return undefined;
  const within = (value: number, [min, max]: readonly [number, number]) => value >= min && value <= max;
  if (!within(ln, LIMITS.ln) || !within(r, LIMITS.r) || !within(p, LIMITS.p)) return undefined;
  if (!within(salt.length, LIMITS.saltBytes) || !within(key.length, LIMITS.keyBytes)) return undefined;
  if (scryptMemoryBytes({ ln, r, p }) > MAX_MEMORY_BYTES) return undefined;
  return { ln, r, p, salt, key };
}

/** The memory OpenSSL's scrypt allocates for these settings (its `maxmem` must allow it). */
export function scryptMemoryBytes({ ln, r, p }: ScryptParameters): number {
  return 128 * r * (2 ** ln + p + 2);
}

/** Only the canonical encoding is accepted, so one hash has exactly one stored form. */
function decode(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64');
  return encode(bytes) === text ? bytes : undefined;
}
