/**
 * Refresh tokens: `<session id>.<64 hex digits of randomness>`. Only their SHA-256 is stored; the
 * session id in front finds the session without an index on hashes. Web Crypto (`globalThis.crypto`),
 * so that the application layer runs in browsers too.
 */

const SECRET_BYTES = 32;
const TOKEN_PATTERN = /^([0-9a-f-]{36})\.([0-9a-f]{64})$/;

/** A new refresh token of `sessionId`. */
export function newRefreshToken(sessionId: string): string {
  const secret = globalThis.crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  return `${sessionId}.${toHex(secret)}`;
}

/** The session a well-formed refresh token names, or undefined for anything else. */
export function sessionIdOfRefreshToken(token: unknown): string | undefined {
  if (typeof token !== 'string') return undefined;
  return TOKEN_PATTERN.exec(token)?.[1];
}

/** What is stored of a refresh token: its SHA-256, in hex (the token has 256 random bits, so no slow hash is needed). */
export async function hashRefreshToken(token: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return toHex(new Uint8Array(digest));
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
