/** One-way password hashing (the stored form of a password). */
export interface PasswordHasherPort {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for anything that is not a hash made by `hash`. */
  compare(password: string, hash: string): Promise<boolean>;
}
