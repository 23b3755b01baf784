import { randomBytes } from 'node:crypto';

/** Incoming ids are echoed into logs and headers, so only short, plain tokens are trusted. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * A request-id source: an acceptable incoming `X-Request-Id` is kept, otherwise a new id is a
 * random per-process prefix plus a counter (unique per process, cheaper than a UUID per request).
 */
export function createRequestIdSource(): (incoming: string | string[] | undefined) => string {
  const prefix = randomBytes(6).toString('hex');
  let counter = 0;
  return (incoming) => {
    if (typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming)) return incoming;
    counter++;
    return `${prefix}-${counter.toString(36)}`;
  };
}
