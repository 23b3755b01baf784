import { call } from '../helpers/http';

export interface LoadReport {
  requests: number;
  /** Count per status, plus 'error' for requests that got no answer. */
  statuses: Record<string, number>;
  failures: string[];
}

/**
 * `clients` loops for `durationMs`, each running create -> get -> patch -> find -> remove on
 * messages with one of `tokens`. Every loop removes what it created, so the stored data does not
 * grow between runs. Any answer other than the expected 2xx is recorded as a failure.
 */
export async function runLoad(
  base: string,
  tokens: string[],
  clients: number,
  durationMs: number,
): Promise<LoadReport> {
  const report: LoadReport = { requests: 0, statuses: {}, failures: [] };
  const deadline = Date.now() + durationMs;
  const record = async (method: string, path: string, token: string, expected: number, body?: unknown) => {
    report.requests++;
    try {
      const response = await call(base, method, path, { token, body });
      report.statuses[response.status] = (report.statuses[response.status] ?? 0) + 1;
      if (response.status !== expected && report.failures.length < 20)
        report.failures.push(`${method} ${path}: ${response.status} ${response.text.slice(0, 200)}`);
      return response;
    } catch (error) {
      report.statuses.error = (report.statuses.error ?? 0) + 1;
      if (report.failures.length < 20)
        report.failures.push(`${method} ${path}: ${String((error as Error).cause ?? error)}`);
      return undefined;
    }
  };
  const client = async (index: number) => {
    const token = tokens[index % tokens.length];
    for (let loop = 0; Date.now() < deadline; loop++) {
      const created = await record('POST', '/messages', token, 201, { text: `load ${index}/${loop}` });
      const id = created?.body?._id ?? created?.body?.id;
      if (!id) continue;
      await record('GET', `/messages/${id}`, token, 200);
      // A like is a patch of its own (one per user); marking read is another.
      await record('PATCH', `/messages/${id}`, token, 200, { $inc: { likes: 1 } });
      await record('PATCH', `/messages/${id}`, token, 200, { read: true });
      await record('GET', `/messages?$limit=5&$sort[createdAt]=-1&read=true`, token, 200);
      await record('DELETE', `/messages/${id}`, token, 200);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  return report;
}
