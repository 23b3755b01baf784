import type { IncomingMessage, ServerResponse } from 'node:http';

/** How much of an unread request body is read and thrown away after answering early, at most. */
export const DISCARD_LIMITS = { bytes: 64 * 1024 * 1024, milliseconds: 5_000 };

/** True while a request body (declared by its length or by chunked encoding) has not fully arrived. */
export function bodyStillArriving(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Sends an answer given before the request body was read (a 413, a 400 for a bad encoding, a 404
 * for a POST elsewhere) so that the client reads it. Closing the socket while the client is still
 * sending makes its kernel answer with a reset, which discards the answer unread (the client sees
 * EPIPE or ECONNRESET instead). So, as a lingering close: the head (with `Connection: close`,
 * already written by the caller) and the whole `payload` leave now, the rest of the body is read
 * and thrown away, and the response ends, closing the connection, once the body is over, or after
 * `limits` (bytes or time) for a client that keeps sending.
 */
export function endAfterDiscardingBody(
  req: IncomingMessage,
  res: ServerResponse,
  payload: string | undefined,
  limits = DISCARD_LIMITS,
): void {
  if (payload !== undefined) res.write(payload);
  if (req.destroyed) {
    res.end();
    return;
  }
  let discarded = 0;
  const finish = (): void => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', finish);
    req.off('close', finish);
    req.off('error', finish);
    res.end();
  };
  const onData = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (discarded > limits.bytes) finish();
  };
  const timer = setTimeout(finish, limits.milliseconds);
  req.on('data', onData);
  req.once('end', finish);
  req.once('close', finish);
  req.once('error', finish);
  req.resume();
}
