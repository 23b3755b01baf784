export interface JsonResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body; `undefined` for an empty one. */
  body: any;
  /** The raw text, for checks on what was sent at all. */
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** A raw body string sent as is (malformed JSON and the like). */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** One HTTP call with fetch; throws only when no response arrives (connection refused or reset). */
export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(base + path, { method, headers, body: payload });
  const text = await response.text();
  let body: unknown;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path}: ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** The error shape every failure must have (the Feathers wire format, no stack). */
export function isErrorBody(body: any, status: number): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    body.code === status &&
    typeof body.name === 'string' &&
    typeof body.message === 'string' &&
    typeof body.className === 'string' &&
    !('stack' in body)
  );
}
