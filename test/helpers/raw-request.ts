import { Agent, request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RawRequest {
  method: string;
  /** Path and query exactly as they go on the request line. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** One request with node:http, any method and header allowed; rejects only when no answer arrives. */
export function rawRequest(base: string, spec: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  // An explicit length: without one, node sends a HEAD or GET body unframed, as the next request.
  const headers =
    spec.body === undefined
      ? spec.headers
      : { ...spec.headers, 'content-length': String(Buffer.byteLength(spec.body)) };
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method: spec.method, path: spec.path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(10_000, () =>
      req.destroy(new Error(`no answer to ${spec.method} ${spec.path.slice(0, 100)} within 10 s`)),
    );
    req.end(spec.body);
  });
}
