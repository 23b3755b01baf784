/**
 * CPU instructions per request, counted by valgrind instead of timed: for changes worth a fraction
 * of a microsecond on a machine whose neighbours move wall time by more than that. Each request
 * runs through Node's real `IncomingMessage` and `ServerResponse` (on a socket that discards what
 * is written), into the framework's HTTP adapter on `MemoryService`, built from the `src/` of the
 * given tree, or into the bench's bare Fastify app, or into the bare `node:http` floor (`node`).
 * With `--trace <percent>`, the framework is traced as the bench's traced server is (HTTP server,
 * service call and store spans, `parentbased_traceidratio` at that percentage, OTLP/protobuf to a
 * sink in a process of its own, which valgrind does not follow); with `--auth --policy`, it has the
 * bench's policy on `messages` (`servers/bench-messages-policy.ts`). The process runs under callgrind with V8's
 * `--predictable` and `--predictable-gc-schedule` (compilation and collection on a fixed
 * schedule), at two request counts; the difference per request cancels start-up and warm-up.
 * That is repeated (`--repeat`, default 3) and the median kept: most runs agree within a few per
 * cent, but now and then one lands two to four times higher, as if V8 kept the code in a slower
 * tier for that run. An instruction count is not time (cache misses do not show): it tells
 * whether a change does less work. Needs `valgrind` (Debian package). Not part of `npm run bench`.
 *
 *   git archive <commit> src | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
 *   node -r @swc-node/register bench/tools/count-instructions.ts get /tmp/before . fastify
 *   node -r @swc-node/register bench/tools/count-instructions.ts find . --no-security-headers
 *   node -r @swc-node/register bench/tools/count-instructions.ts create /tmp/before . --auth
 *   node -r @swc-node/register bench/tools/count-instructions.ts find . --auth --policy
 *   node -r @swc-node/register bench/tools/count-instructions.ts get . --trace 1
 */
import { spawnSync } from 'node:child_process';
import { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Duplex } from 'node:stream';
import jwt from 'jsonwebtoken';
import { median } from '../lib/stats';
import { BENCH_MESSAGES_POLICY, BENCH_POLICY_METHODS } from '../servers/bench-messages-policy';
import { startOtlpSink } from '../servers/otlp-sink';
import { BENCH_TOKEN_CLAIMS, BENCH_USER, PAGINATE, SEEDED_MESSAGES, seedMessage } from '../servers/server-protocol';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
/** What the child runs and stops once its requests are done (the tracer's last export, the sink). */
interface Served {
  handler: Handler;
  stop?: () => Promise<void>;
}
const REQUESTS = {
  get: ['GET', '/messages/1'],
  find: ['GET', '/messages?$limit=10'],
  create: ['POST', '/messages'],
} as const;
type Kind = keyof typeof REQUESTS;
const CHILD_ENV = 'COUNT_INSTRUCTIONS_CHILD';
const FEWER = 10_000;
const AUTH_SECRET = 'count-instructions-secret-that-is-long-enough';
const MORE = 30_000;
/** Traced runs give the event loop a turn every so many requests (exports need them; see `serve`). */
const EXPORT_TURN_EVERY = 16;

/**
 * What a framework tree is counted with: its security headers, and the options of bench/servers/framework-server.ts.
 */
interface Setup {
  readonly securityHeaders: boolean;
  /** The framework's own `authenticate('jwt')`. */
  readonly auth: boolean;
  /** The bench's policy on `messages` (with `auth`). */
  readonly policy: boolean;
  /** Traced, sampled at this percentage (the tree must have tracing). */
  readonly tracePercent: number | undefined;
}

async function frameworkHandler(tree: string, { securityHeaders, auth, policy, tracePercent }: Setup): Promise<Served> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const framework = require(path.join(tree, 'src'));
  const { createApp, createHttpAdapter, MemoryService } = framework;
  const service = new MemoryService({ paginate: PAGINATE });
  for (let i = 0; i < SEEDED_MESSAGES; i++) await service.create(seedMessage(i));
  const app = createApp();
  let tracer: { shutdown(): Promise<void> } | undefined;
  let stop: Served['stop'];
  if (tracePercent !== undefined) {
    const { OpenTelemetryTracer } = require(path.join(tree, 'src/adapters/opentelemetry'));
    const { observeServiceCalls } = require(path.join(tree, 'src/application/observability/observe-service-calls'));
    const { observeStoreCalls } = require(path.join(tree, 'src/application/adapter/observe-store-calls'));
    const sink = await startOtlpSink();
    tracer = new OpenTelemetryTracer(
      {
        serviceName: 'bench',
        tracesUrl: sink.tracesUrl,
        protocol: 'http/protobuf',
        sampler: 'parentbased_traceidratio',
        samplerRatio: tracePercent / 100,
        scheduleDelayMs: 5000,
      },
      '0.0.0',
    );
    app.observeCall = observeServiceCalls(tracer, undefined);
    observeStoreCalls(service, { tracer }, { system: 'memory', collection: 'messages' });
    stop = async () => {
      await tracer!.shutdown();
      await sink.stop();
    };
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
  app.use('messages', service);
  if (auth) {
    const jwtSettings = framework.createJwtSettings({ secret: AUTH_SECRET });
    const users = new MemoryService();
    await users.create(BENCH_USER);
    app.use('users', users);
    const strategy = new framework.JwtAuthenticationStrategy({
      settings: jwtSettings,
      users: () => app.service('users'),
    });
    app.use(
      'authentication',
      new framework.AuthenticationService({
        strategies: [strategy],
        tokenIssuer: new framework.JsonWebTokenIssuer(jwtSettings),
      }),
      { methods: ['create', 'remove'] },
    );
    // Trees since the named stages: the policy is two layers, so authentication is one too (it runs first).
    const stages = typeof framework.policyScope === 'function';
    const authenticate = [framework.authenticate('jwt')];
    app.service('messages').hooks(stages ? { around: { all: authenticate } } : { before: { all: authenticate } });
    if (policy) {
      const { PolicyViews } = framework;
      const views = new PolicyViews({
        path: 'messages',
        policy: BENCH_MESSAGES_POLICY,
        rolesField: 'roles',
        idField: 'id',
        hiddenFields: [],
      });
      if (stages) {
        const layers = [framework.policyView(views), framework.policyScope(views)];
        app.service('messages').hooks({ around: Object.fromEntries(BENCH_POLICY_METHODS.map((m) => [m, layers])) });
      } else {
        app.service('messages').hooks(framework.enforcePolicy(views, BENCH_POLICY_METHODS));
        app.service('messages').hooks(framework.answerPolicyErrors(views, BENCH_POLICY_METHODS));
      }
    }
  }
  await app.setup();
  return { handler: createHttpAdapter(app, { ...(securityHeaders ? {} : { securityHeaders: false }), tracer }), stop };
}

async function fastifyHandler(): Promise<Served> {
  // Loaded only here, so that a framework child runs without Fastify's modules.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { createFastifyApp } = require('../servers/fastify-app') as typeof import('../servers/fastify-app');
  const { memoryMessageStore } =
    require('../servers/fastify-message-stores') as typeof import('../servers/fastify-message-stores');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const app = await createFastifyApp({ auth: false, secret: '' }, memoryMessageStore());
  await app.ready();
  return { handler: app.routing };
}

/** The bare `node:http` floor of the `http` suite (`servers/node-floor-handler.ts`). */
async function floorHandler(): Promise<Served> {
  const { createFloorHandler } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('../servers/node-floor-handler') as typeof import('../servers/node-floor-handler');
  return { handler: createFloorHandler() };
}

/** The child: `count` requests of one kind, nothing printed. */
async function serve(target: string, kind: Kind, count: number, setup: Setup): Promise<void> {
  const { handler, stop } =
    target === 'fastify'
      ? await fastifyHandler()
      : target === 'node'
        ? await floorHandler()
        : await frameworkHandler(path.resolve(target), setup);
  const token = jwt.sign({}, AUTH_SECRET, {
    algorithm: 'HS256',
    expiresIn: '2h',
    subject: BENCH_TOKEN_CLAIMS.subject,
    audience: BENCH_TOKEN_CLAIMS.audience,
    issuer: BENCH_TOKEN_CLAIMS.issuer,
    header: { alg: 'HS256', typ: BENCH_TOKEN_CLAIMS.typ },
  });
  const socket = new Duplex({
    write: (_chunk, _encoding, done) => done(),
    writev: (_chunks, done) => done(),
    read: () => undefined,
  });
  const [method, url] = REQUESTS[kind];
  const body = Buffer.from(JSON.stringify({ text: 'A benchmark message', userId: 7 }));
  const request = () =>
    new Promise<void>((resolve) => {
      const req = new IncomingMessage(socket as never);
      req.method = method;
      req.url = url;
      req.headers = { host: '127.0.0.1', connection: 'keep-alive' };
      if (setup.auth) req.headers.authorization = `Bearer ${token}`;
      if (method === 'POST') {
        req.headers['content-type'] = 'application/json';
        req.headers['content-length'] = String(body.length);
        req.push(body);
        req.push(null);
      }
      req.complete = true;
      const res = new ServerResponse(req);
      res.assignSocket(socket as never);
      res.on('finish', () => {
        res.detachSocket(socket as never);
        resolve();
      });
      handler(req, res);
    });
  for (let i = 0; i < count; i++) {
    await request();
    // The requests alone never give the event loop a turn for I/O: a traced server's exports would
    // never complete, and the batch processor would drop the spans it cannot queue.
    if (setup.tracePercent !== undefined && i % EXPORT_TURN_EVERY === 0)
      await new Promise((resolve) => setImmediate(resolve));
  }
  await stop?.();
}

/** Instructions of a whole child process, as callgrind counts them. */
function instructions(
  target: string,
  kind: Kind,
  count: number,
  { securityHeaders, auth, policy, tracePercent }: Setup,
): number {
  const args = [
    '--tool=callgrind',
    '--callgrind-out-file=/dev/null',
    process.execPath,
    '--predictable',
    '--predictable-gc-schedule',
    '-r',
    '@swc-node/register',
    __filename,
    kind,
    target,
  ];
  if (!securityHeaders) args.push('--no-security-headers');
  if (auth) args.push('--auth');
  if (policy) args.push('--policy');
  if (tracePercent !== undefined) args.push('--trace', String(tracePercent));
  // valgrind reports on stderr; the child prints nothing unless it fails.
  const run = spawnSync('valgrind', args, { env: { ...process.env, [CHILD_ENV]: String(count) }, encoding: 'utf8' });
  const counted = /I\s+refs:\s+([\d,]+)/.exec(run.stderr ?? '');
  if (run.status !== 0 || !counted)
    throw new Error(
      `valgrind counted nothing (${run.error?.message ?? `exit ${run.status}`}):\n${(run.stderr ?? '').slice(-800)}`,
    );
  return Number(counted[1].replace(/,/g, ''));
}

async function main(): Promise<void> {
  const [kind, ...rest] = process.argv.slice(2);
  const securityHeaders = !rest.includes('--no-security-headers');
  const auth = rest.includes('--auth');
  const policy = rest.includes('--policy');
  const repeatAt = rest.indexOf('--repeat');
  const repeat = repeatAt === -1 ? 3 : Number(rest[repeatAt + 1]);
  const traceAt = rest.indexOf('--trace');
  const tracePercent = traceAt === -1 ? undefined : Number(rest[traceAt + 1]);
  const withValue = (index: number, at: number) => at !== -1 && (index === at || index === at + 1);
  const isOption = (argument: string, index: number) =>
    argument === '--no-security-headers' ||
    argument === '--auth' ||
    argument === '--policy' ||
    withValue(index, repeatAt) ||
    withValue(index, traceAt);
  const targets = rest.filter((argument, index) => !isOption(argument, index));
  const frameworkOnly = auth || tracePercent !== undefined;
  const badPercent = tracePercent !== undefined && !(tracePercent > 0 && tracePercent <= 100);
  if (
    !(kind in REQUESTS) ||
    targets.length === 0 ||
    !Number.isSafeInteger(repeat) ||
    repeat < 1 ||
    badPercent ||
    (policy && !auth) ||
    (frameworkOnly && (targets.includes('fastify') || targets.includes('node')))
  ) {
    console.error(
      'usage: node -r @swc-node/register bench/tools/count-instructions.ts get|find|create <tree with src/ | fastify ' +
        '| node>... [--no-security-headers] [--auth [--policy]] [--trace PERCENT] (both: framework trees only) ' +
        '[--repeat N]',
    );
    process.exit(1);
  }
  const setup: Setup = { securityHeaders, auth, policy, tracePercent };
  const childCount = process.env[CHILD_ENV];
  if (childCount !== undefined) return serve(targets[0], kind as Kind, Number(childCount), setup);
  for (const target of targets) {
    const counts: number[] = [];
    for (let run = 0; run < repeat; run++) {
      const more = instructions(target, kind as Kind, MORE, setup);
      counts.push(Math.round((more - instructions(target, kind as Kind, FEWER, setup)) / (MORE - FEWER)));
    }
    const label =
      `${kind} ${target}` +
      `${securityHeaders || target === 'fastify' || target === 'node' ? '' : ' (no security headers)'}` +
      `${auth ? ' (authentication on)' : ''}${policy ? ' (policy on)' : ''}` +
      `${tracePercent === undefined ? '' : ` (traced at ${tracePercent} %)`}`;
    console.log(
      `${label}: ${Math.round(median(counts))} instructions per request (median; runs: ${counts.join(', ')})`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
