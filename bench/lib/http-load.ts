import autocannon from 'autocannon';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface LoadOptions {
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration: number;
  /** Stop after this many requests instead of after `duration`. */
  amount?: number;
}

/**
 * Drives `requests` (cycled per connection) at `baseUrl` with autocannon from this process and
 * returns successful requests per second. Any non-2xx answer or socket error fails the
 * measurement: a benchmark of 401s or 404s would measure the wrong thing.
 */
export async function measureThroughput(
  baseUrl: string,
  requests: LoadRequest[],
  options: LoadOptions,
): Promise<number> {
  return (await measureLoad(baseUrl, requests, options)).perSecond;
}

/** Successful requests per second and in total. */
export async function measureLoad(
  baseUrl: string,
  requests: LoadRequest[],
  options: LoadOptions,
): Promise<{ perSecond: number; total: number }> {
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    pipelining: 1,
    timeout: 10,
    // A safety bound for amount-limited runs too.
    duration: options.amount ? Math.max(options.duration, 120) : options.duration,
    amount: options.amount,
    requests: requests.map((request) => ({
      method: request.method,
      path: request.path,
      body: request.body,
      headers:
        request.body === undefined ? request.headers : { 'content-type': 'application/json', ...request.headers },
    })),
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `load on ${baseUrl}${requests[0].path}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} ` +
        `timeouts`,
    );
  }
  return { perSecond: result['2xx'] / result.duration, total: result['2xx'] };
}
