import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { ConcurrencyLimit } from '../../application/concurrency/concurrency-limit';
import { Unavailable } from '../../domain/errors';
import { copyWith } from '../../domain/plain-record';
import type { PasswordHasherPort } from '../../ports/password-hasher.port';
import { BcryptVerifierPool } from './bcrypt-verifier-pool';
import { formatScryptHash, parseScryptHash, scryptMemoryBytes, type ScryptParameters } from './scrypt-hash-format';

/** log2 of scrypt's N by default: N = 2^17 with r = 8, p = 1 (128 MiB per hash), OWASP's minimum. */
export const DEFAULT_PASSWORD_HASH_COST = 17;
export const PASSWORD_HASH_COST_RANGE = [10, 20] as const;

export interface ScryptPasswordHasherOptions {
  /** log2 of scrypt's N (memory 2^cost KiB with r = 8). Default 17. */
  cost?: number;
  /** Hashes and compares running at once (libuv threads or bcrypt workers). Default 2. */
  concurrency?: number;
  /** Hashes and compares waiting for a slot; past it, 503. Default 100. */
  queueLimit?: number;
}

const BLOCK_SIZE = 8;
const PARALLELIZATION = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** bcrypt hashes stored before scrypt: verified (off the event loop) and replaced at the next login. */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * PasswordHasherPort with Node's scrypt, which runs on libuv's thread pool: hashing never holds
 * the event loop, needs no native build and no dependency. A limiter caps how many hashes run at
 * once (so file and DNS work keep threads) and how many may wait. Legacy bcrypt hashes verify in
 * worker threads under the same cap; `needsRehash` tells the login to replace them.
 */
export class ScryptPasswordHasher implements PasswordHasherPort {
  readonly parameters: ScryptParameters;
  private readonly limiter: ConcurrencyLimit;
  private readonly bcrypt: BcryptVerifierPool;

  constructor(options: ScryptPasswordHasherOptions = {}) {
    const cost = options.cost ?? DEFAULT_PASSWORD_HASH_COST;
    const [min, max] = PASSWORD_HASH_COST_RANGE;
    if (!Number.isInteger(cost) || cost < min || cost > max)
      throw new Error(`The password hash cost must be an integer from ${min} to ${max}, got ${cost}`);
    this.parameters = { ln: cost, r: BLOCK_SIZE, p: PARALLELIZATION };
    const concurrency = options.concurrency ?? 2;
    // Capped so that file and DNS work keep threads of libuv's pool; the bounded queue makes a login
    // burst cost a 503, never unbounded memory and waiting.
    this.limiter = new ConcurrencyLimit({
      size: concurrency,
      maxWaiting: options.queueLimit ?? 100,
      refusal: () => new Unavailable('The server is busy checking passwords, try again shortly'),
    });
    this.bcrypt = new BcryptVerifierPool({ size: concurrency });
  }

  /** Hashes and compares running and waiting now. */
  get load(): { running: number; waiting: number } {
    return this.limiter.usage;
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await this.limiter.run(() => derive(password, salt, KEY_BYTES, this.parameters));
    return formatScryptHash(copyWith(this.parameters, { salt, key }));
  }

  async compare(password: string, hash: string): Promise<boolean> {
    if (typeof password !== 'string' || typeof hash !== 'string') return false;
    const stored = parseScryptHash(hash);
    if (stored) {
      const key = await this.limiter.run(() => derive(password, stored.salt, stored.key.length, stored));
      return timingSafeEqual(key, stored.key);
    }
    // Anything else that is not a bcrypt hash never matches (and costs nothing to refuse).
    if (!BCRYPT_HASH.test(hash)) return false;
    return this.limiter.run(() => this.bcrypt.compare(password, hash));
  }

  needsRehash(hash: string): boolean {
    const stored = typeof hash === 'string' ? parseScryptHash(hash) : undefined;
    if (!stored) return true;
    const { ln, r, p } = this.parameters;
    return (
      stored.ln !== ln ||
      stored.r !== r ||
      stored.p !== p ||
      stored.salt.length !== SALT_BYTES ||
      stored.key.length !== KEY_BYTES
    );
  }

  /** Ends the bcrypt workers (the scrypt side holds nothing). */
  close(): Promise<void> {
    return this.bcrypt.close();
  }
}

function derive(password: string, salt: Buffer, length: number, parameters: ScryptParameters): Promise<Buffer> {
  const { ln, r, p } = parameters;
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, { N: 2 ** ln, r, p, maxmem: scryptMemoryBytes(parameters) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
