import type { FetchFunction, FetchResponseLike } from '../adapters/rest-client';
import type { RemoteConnection } from '../adapters/rest-client/remote-binding';
import { ConcurrencyLimit } from '../application/concurrency/concurrency-limit';
import { Unavailable } from '../domain/errors';
import { copyWith } from '../domain/plain-record';

export interface RemotePoolSettings {
  /** Keep-alive connections to the remote at most. */
  connections: number;
  /** How long a call waits for one of them before it fails with `Unavailable`. */
  queueTimeoutMs: number;
  /** Calls that may wait for one; a call finding that many waiting fails with `Unavailable` at once. */
  maxWaiting: number;
}

/**
 * A bounded keep-alive pool for the calls of one remote binding. Node's global fetch opens a
 * connection per concurrent request without limit, so a burst of calls becomes a burst of TCP
 * connections to the other server. Here undici's `Agent` (the library inside Node's fetch, as a
 * package so its options are ours) keeps at most `connections` sockets to the remote, and each
 * call holds one of as many slots from the moment it is sent until its body is read: a call beyond
 * them waits its turn, and one that waits longer than `queueTimeoutMs`, or finds `maxWaiting`
 * calls waiting already (each holds an inbound request in memory), fails with `Unavailable`,
 * which the binding answers as a 503 naming the service. (undici would queue the call too, but
 * without a bound on how long or how many.)
 */
export function createRemoteConnectionPool(settings: RemotePoolSettings): RemoteConnection {
  // undici loads with the first remote binding: an application without remotes never pays for it.
  const { Agent, fetch: undiciFetch } = require('undici') as typeof import('undici');
  const agent = new Agent({ connections: settings.connections, pipelining: 1 });
  const slots = new ConcurrencyLimit({
    size: settings.connections,
    waitTimeoutMs: settings.queueTimeoutMs,
    maxWaiting: settings.maxWaiting,
    refusal: (reason) =>
      new Unavailable(
        reason === 'queue-full'
          ? `All ${settings.connections} connections to the remote server are in use and ${settings.maxWaiting} ` +
              `calls wait for one`
          : `No connection to the remote server came free within ${settings.queueTimeoutMs} ms ` +
              `(all ${settings.connections} in use)`,
      ),
  });
  const fetch: FetchFunction = async (url, init = {}) => {
    const release = await slots.acquire(init.signal as AbortSignal | undefined);
    try {
      const response = await undiciFetch(url, copyWith(init, { dispatcher: agent }));
      // Read within the slot: the connection is busy until its body has arrived.
      const text = await response.text();
      const answer: FetchResponseLike = {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        text: () => Promise.resolve(text),
      };
      return answer;
    } finally {
      release();
    }
  };
  return { fetch, close: () => agent.close() };
}
