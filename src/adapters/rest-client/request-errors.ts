import { Timeout, Unavailable } from '../../domain/errors';

/** Node's codes for a server that could not be reached at all. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);

/** Browsers and Node's fetch report network failures as a TypeError with one of these messages. */
const NETWORK_FAILURE =
  /^(fetch failed|Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed|Network Error)$/;

/** The error of a call cancelled through `params.connection.signal`; `name` follows the DOM's AbortError. */
export function abortError(reason?: unknown): Error {
  const error = new Error('The request was aborted', reason === undefined ? undefined : { cause: reason });
  error.name = 'AbortError';
  return error;
}

export function timeoutError(milliseconds: number): Timeout {
  return new Timeout(`The request timed out after ${milliseconds} ms`, { timeout: milliseconds });
}

/**
 * Turns a request library's failure to get any response into `Unavailable` when it means the
 * server was unreachable; anything else (a bad URL, a programming error) is returned unchanged.
 */
export function transportError(error: unknown): Error {
  // Duck-typed: errors of Node's fetch and sockets may come from another realm (jest's vm, iframes).
  if (typeof error !== 'object' || error === null || typeof (error as Error).message !== 'string')
    return new Error(String(error));
  const cause = (error as { cause?: { code?: unknown; address?: unknown; port?: unknown } }).cause;
  const own = error as unknown as { code?: unknown; address?: unknown; port?: unknown; crossDomain?: unknown };
  const code = typeof own.code === 'string' ? own.code : typeof cause?.code === 'string' ? cause.code : undefined;
  const unreachable =
    (code !== undefined && UNREACHABLE_CODES.has(code)) ||
    code === 'ERR_NETWORK' ||
    own.crossDomain === true ||
    ((error as Error).name === 'TypeError' && NETWORK_FAILURE.test((error as Error).message));
  if (!unreachable) return error as Error;
  const details = { code, address: own.address ?? cause?.address, port: own.port ?? cause?.port };
  const data = Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined));
  const unavailable = new Unavailable(`The server is unavailable: ${(error as Error).message}`, data);
  (unavailable as { cause?: unknown }).cause = error;
  return unavailable;
}
