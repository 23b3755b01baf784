import { BadRequest } from '../../domain/errors';

/** The request header carrying a key (REST); lower-case, as Node gives headers. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** The query key carrying one where a call has no headers of its own (socket calls). */
export const IDEMPOTENCY_QUERY_KEY = '$idempotencyKey';

const MAX_KEY_LENGTH = 255;
/** Visible ASCII, which a structured-field string holds besides the space (refused here). */
const KEY_CHARACTERS = /^[\x21-\x7e]+$/;

/**
 * The key a client sent, as the Idempotency-Key draft writes it (a structured-field string,
 * `"8e03978e-..."`) or bare; 1 to 255 visible ASCII characters, else a 400.
 */
export function parseIdempotencyKey(raw: unknown): string {
  if (typeof raw !== 'string') throw new BadRequest('Idempotency-Key must be a string');
  const quoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"');
  const key = quoted ? raw.slice(1, -1) : raw;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_CHARACTERS.test(key) || (quoted && /["\\]/.test(key))) {
    throw new BadRequest(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters, e.g. a UUID`);
  }
  return key;
}
