/**
 * Opaque tokens (refresh tokens, password reset links): `<record id>.<64 hex digits of randomness>`.
 * Only their SHA-256 is stored; the id in front finds the record without an index on hashes. Web
 * Crypto (`globalThis.crypto`), so that the application layer runs in browsers too.
 */

const SECRET_BYTES = 32;
const TOKEN_PATTERN = /^([0-9a-f-]{36})\.([0-9a-f]{64})$/;

/** A new token of the record `id` (a UUID). */
export function newOpaqueToken(id: string): string {
  const secret = globalThis.crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  return `${id}.${toHex(secret)}`;
}

/** The record a well-formed token names, or undefined for anything else. */
export function idOfOpaqueToken(token: unknown): string | undefined {
  if (typeof token !== 'string') return undefined;
  return TOKEN_PATTERN.exec(token)?.[1];
}

/** What is stored of a token: its SHA-256, in hex (the token has 256 random bits, so no slow hash is needed). */
export function hashOpaqueToken(token: string): Promise<string> {
  return sha256Hex(token);
}

/** The SHA-256 of a text, in hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return toHex(new Uint8Array(digest));
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
