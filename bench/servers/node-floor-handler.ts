/**
 * The floor under any framework: a bare `node:http` handler doing the bare baselines' work (a Map
 * for gets, an array for pages, 201 on create, a bounded JSON body) with no router, no hooks and no
 * validation beyond `$limit`/`$skip`, but sending what every framework JSON answer carries: the
 * REST API security headers and an `X-Request-Id`. The framework can only approach it; how close
 * it gets, and where bare Fastify 5 (which sends neither) stands against it, says what the
 * framework's own work costs apart from those headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAGINATE, SEEDED_MESSAGES, seedMessage } from './server-protocol';

interface Message {
  id: number;
  text: string;
  userId: number;
}

const BODY_LIMIT = 1024 * 1024;
/** The framework's API set with helmet's default HSTS, as `createHttpAdapter` sends them on a JSON answer. */
const API_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

/** The floor's request handler, seeded; `node-server.ts` serves it, `tools/count-instructions.ts` counts it. */
export function createFloorHandler(): (req: IncomingMessage, res: ServerResponse) => void {
  const messages: Message[] = [];
  const byId = new Map<number, Message>();
  const insert = (data: Omit<Message, 'id'>): Message => {
    const message = { ...data, id: messages.length };
    messages.push(message);
    byId.set(message.id, message);
    return message;
  };
  for (let i = 0; i < SEEDED_MESSAGES; i++) insert(seedMessage(i));
  let requests = 0;

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    const payload = JSON.stringify(body);
    // Copied, then extended: a literal spreading API_HEADERS among more keys made this handler
    // about 8 µs per request slower in Node 20 (bench/README.md, "Findings").
    const headers: Record<string, string | number> = Object.assign({}, API_HEADERS);
    headers['x-request-id'] = `bench-${(++requests).toString(36)}`;
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = Buffer.byteLength(payload);
    res.writeHead(status, headers);
    res.end(payload);
  };
  const count = (value: string | null, fallback: number): number | undefined => {
    const parsed = value === null ? fallback : Number(value);
    return Number.isInteger(parsed) && parsed >= 0 ? parsed : undefined;
  };
  const create = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      let body: Partial<Message> | undefined;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<Message>;
      } catch {
        body = undefined;
      }
      if (!body || typeof body !== 'object' || Array.isArray(body))
        send(res, 400, { name: 'BadRequest', message: 'Expected a JSON object', code: 400 });
      else send(res, 201, insert({ text: String(body.text), userId: Number(body.userId ?? 0) }));
    });
  };

  return (req, res) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    if (pathname === '/messages' && req.method === 'POST') return create(req, res);
    if (pathname === '/messages' && req.method === 'GET') {
      const query = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
      const limit = count(query.get('$limit'), PAGINATE.default);
      const skip = count(query.get('$skip'), 0);
      if (limit === undefined || skip === undefined)
        return send(res, 400, { name: 'BadRequest', message: 'Invalid $limit or $skip', code: 400 });
      const page = Math.min(limit, PAGINATE.max);
      return send(res, 200, { total: messages.length, limit: page, skip, data: messages.slice(skip, skip + page) });
    }
    const id = pathname.startsWith('/messages/') ? pathname.slice('/messages/'.length) : undefined;
    const message = id === undefined || req.method !== 'GET' ? undefined : byId.get(Number(id));
    if (message) send(res, 200, message);
    else send(res, 404, { name: 'NotFound', message: 'Not found', code: 404 });
  };
}
