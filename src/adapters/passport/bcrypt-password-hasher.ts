import bcrypt from 'bcryptjs';
import type { PasswordHasherPort } from '../../ports/password-hasher.port';

export interface BcryptPasswordHasherOptions {
  /** The bcrypt cost (log2 of the rounds). Default 10, as Feathers' `hashSize`. */
  cost?: number;
}

const BCRYPT_HASH = /^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** PasswordHasherPort with bcryptjs (pure JavaScript: no native build step). */
export class BcryptPasswordHasher implements PasswordHasherPort {
  readonly cost: number;

  constructor(options: BcryptPasswordHasherOptions = {}) {
    const cost = options.cost ?? 10;
    if (!Number.isInteger(cost) || cost < 4 || cost > 31) throw new Error(`The bcrypt cost must be an integer from 4 to 31, got ${cost}`);
    this.cost = cost;
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  async compare(password: string, hash: string): Promise<boolean> {
    // bcryptjs throws on some malformed hashes; a stored value that is no bcrypt hash never matches.
    if (typeof password !== 'string' || typeof hash !== 'string' || !BCRYPT_HASH.test(hash)) return false;
    return bcrypt.compare(password, hash);
  }
}
