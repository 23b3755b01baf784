/**
 * The Fastify 5 baselines' app (`fastify-server.ts` serves it on a port): the bare Express
 * baseline's work on Fastify (an in-memory array, the same page shape, 201 on create, 404 and 400
 * answers), as a Fastify user writes it: route schemas for the id, the query and the body (Fastify
 * validates and coerces with them), async handlers returning the value, Fastify's default JSON
 * serialisation (no response schema, as Express's res.json). Optionally with @fastify/helmet's
 * default security headers, with @fastify/jwt verifying the bearer token (HS256, audience and
 * issuer pinned) and loading the user from a Map, and on the database store (the official driver
 * on an embedded server in this process).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { MessageStore, NewMessage } from './fastify-message-stores';
import { BENCH_TOKEN_CLAIMS, BENCH_USER, PAGINATE, type ServerSettings } from './server-protocol';

const pageQuerySchema = {
  type: 'object',
  properties: { $limit: { type: 'integer', minimum: 0 }, $skip: { type: 'integer', minimum: 0 } },
} as const;

const createBodySchema = {
  type: 'object',
  properties: { text: { type: 'string' }, userId: { type: 'integer' } },
  required: ['text'],
} as const;

async function authenticateWithJwt(app: FastifyInstance, secret: string): Promise<void> {
  const { default: fastifyJwt } = await import('@fastify/jwt');
  await app.register(fastifyJwt, {
    secret,
    verify: { algorithms: ['HS256'], allowedAud: BENCH_TOKEN_CLAIMS.audience, allowedIss: BENCH_TOKEN_CLAIMS.issuer },
  });
  const users = new Map([[String(BENCH_USER.id), BENCH_USER]]);
  app.addHook('onRequest', async (request, reply) => {
    try {
      const payload = await request.jwtVerify<{ sub?: string }>();
      const user = users.get(String(payload.sub));
      if (!user) throw new Error('unknown user');
      request.user = user;
    } catch {
      return reply.code(401).send({ name: 'NotAuthenticated', message: 'Invalid access token', code: 401 });
    }
  });
}

function messageRoutes(app: FastifyInstance, store: MessageStore): void {
  app.get<{ Querystring: { $limit?: number; $skip?: number } }>(
    '/messages',
    { schema: { querystring: pageQuerySchema } },
    async (request) => {
      const limit = Math.min(request.query.$limit ?? PAGINATE.default, PAGINATE.max);
      return store.page(limit, request.query.$skip ?? 0);
    },
  );

  app.get<{ Params: { id: string | number } }>(
    '/messages/:id',
    { schema: { params: { type: 'object', properties: { id: store.idSchema }, required: ['id'] } } },
    async (request, reply) => {
      const message = await store.get(request.params.id);
      if (!message)
        return reply
          .code(404)
          .send({ name: 'NotFound', message: `No record found for id '${request.params.id}'`, code: 404 });
      return message;
    },
  );

  app.post<{ Body: NewMessage }>('/messages', { schema: { body: createBodySchema } }, async (request, reply) => {
    const message = await store.create({ text: request.body.text, userId: request.body.userId ?? 0 });
    return reply.code(201).send(message);
  });
}

export async function createFastifyApp(
  settings: Pick<ServerSettings, 'helmet' | 'auth' | 'secret'>,
  store: MessageStore,
): Promise<FastifyInstance> {
  const app = Fastify();
  // The plugins load only when used, so that bare Fastify's memory figures are bare Fastify's.
  if (settings.helmet) await app.register((await import('@fastify/helmet')).default);
  if (settings.auth) await authenticateWithJwt(app, settings.secret);
  messageRoutes(app, store);
  return app;
}
