/**
 * The baseline: a bare Express 5 app doing the framework server's work by hand (an in-memory
 * array, the same pagination and JSON shapes, 201 on create, express.json(), res.json, and a
 * bearer-JWT middleware when authentication is on: jsonwebtoken's verify with the algorithm,
 * audience and issuer pinned, then the token's user looked up). ETags are off, as in the
 * framework adapter, so both sides send the same kind of response.
 */
import { createSecretKey } from 'node:crypto';
import { createServer } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import jwt from 'jsonwebtoken';
import {
  BENCH_TOKEN_CLAIMS,
  BENCH_USER,
  PAGINATE,
  SEEDED_MESSAGES,
  listenUntilStopped,
  reportFailure,
  seedMessage,
  settingsFromEnv,
} from './server-protocol';

interface Message {
  id: number;
  text: string;
  userId: number;
}

function main(): void {
  const settings = settingsFromEnv();
  const messages: Message[] = [];
  const byId = new Map<number, Message>();
  let nextId = 0;
  const insert = (data: Omit<Message, 'id'>): Message => {
    const message = { ...data, id: nextId++ };
    messages.push(message);
    byId.set(message.id, message);
    return message;
  };
  for (let i = 0; i < SEEDED_MESSAGES; i++) insert(seedMessage(i));

  const app = express();
  app.set('etag', false);
  if (settings.auth) {
    // A KeyObject, as the framework's strategy uses: with a string secret jsonwebtoken builds a
    // key on every call (~350 µs here), which would only slow this baseline down.
    const key = createSecretKey(Buffer.from(settings.secret, 'utf8'));
    const verifyOptions = {
      algorithms: ['HS256' as const],
      audience: BENCH_TOKEN_CLAIMS.audience,
      issuer: BENCH_TOKEN_CLAIMS.issuer,
    };
    const users = new Map([[String(BENCH_USER.id), BENCH_USER]]);
    app.use('/messages', (req: Request, res: Response, next: NextFunction) => {
      const header = req.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7) : '';
      try {
        const payload = jwt.verify(token, key, verifyOptions) as jwt.JwtPayload;
        const user = users.get(String(payload.sub));
        if (!user) throw new Error('unknown user');
        res.locals.user = user;
        next();
      } catch {
        res.status(401).json({ name: 'NotAuthenticated', message: 'Invalid access token', code: 401 });
      }
    });
  }
  app.use(express.json());

  app.get('/messages', (req: Request, res: Response) => {
    const query = req.query as Record<string, string | undefined>;
    const limit = Math.min(query.$limit === undefined ? PAGINATE.default : Number(query.$limit), PAGINATE.max);
    const skip = query.$skip === undefined ? 0 : Number(query.$skip);
    if (!Number.isInteger(limit) || limit < 0 || !Number.isInteger(skip) || skip < 0) {
      res.status(400).json({ name: 'BadRequest', message: 'Invalid $limit or $skip', code: 400 });
      return;
    }
    res.json({ total: messages.length, limit, skip, data: messages.slice(skip, skip + limit) });
  });

  app.get('/messages/:id', (req: Request, res: Response) => {
    const message = byId.get(Number(req.params.id));
    if (!message)
      res.status(404).json({ name: 'NotFound', message: `No record found for id '${req.params.id}'`, code: 404 });
    else res.json(message);
  });

  app.post('/messages', (req: Request, res: Response) => {
    const body = req.body as Partial<Message> | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      res.status(400).json({ name: 'BadRequest', message: 'Expected a JSON object', code: 400 });
      return;
    }
    res.status(201).json(insert({ text: String(body.text), userId: Number(body.userId ?? 0) }));
  });

  listenUntilStopped(createServer(app), '1');
}

try {
  main();
} catch (error) {
  reportFailure(error);
}
