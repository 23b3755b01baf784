/** One-way password hashing (the stored form of a password). */
export interface PasswordHasherPort {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for anything that is not a hash this hasher can verify. */
  compare(password: string, hash: string): Promise<boolean>;
  /**
   * True when `hash` (one that `compare` just accepted) is not what `hash` would make today: an
   * older algorithm or other cost settings. The caller then stores a fresh hash of the password.
   */
  needsRehash(hash: string): boolean;
}
