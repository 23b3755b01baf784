/**
 * The skeleton's own services, composed as `npm start` composes them (STORE=memory), called in
 * process as a transport calls them: `node -r @swc-node/register bench/tools/skeleton-calls.ts
 * <tree> [--calls N]` prints the calls per second of a signed-in messages get, find (10 with
 * authors) and create through `app.execute`, for the tree at <tree> (this checkout, or a worktree
 * of another commit with this tree's node_modules). Run two trees alternately and compare medians:
 * the HTTP suite's servers register their hooks by hand, so only this measures the definitions' stages.
 */
import 'reflect-metadata';
import path from 'node:path';
import { parseArgs } from 'node:util';

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { calls: { type: 'string', default: '20000' } },
  });
  const tree = path.resolve(positionals[0] ?? '.');
  const calls = Number(values.calls);
  // Another tree's sources, by path: what an import names cannot be chosen at run time.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { composeApplication } = require(path.join(tree, 'src/composition-root'));
  const { loadConfig } = require(path.join(tree, 'src/composition/load-config'));
  /* eslint-enable @typescript-eslint/no-require-imports */
  const config = loadConfig({
    NODE_ENV: 'test',
    STORE: 'memory',
    DATA_DIR: ':memory:',
    AUTH_SECRET: 'a-bench-secret-that-is-long-enough-0123456789',
    PASSWORD_HASH_COST: '10',
    LOG_LEVEL: 'silent',
  });
  const composed = await composeApplication(config, { authentication: { rateLimit: false } });
  const { app } = composed;
  const email = 'bench@example.com';
  const password = 'correct horse battery';
  await app.service('users').create({ email, password, name: 'Bench' }, { provider: 'rest', headers: {} });
  const login = await app.execute('authentication', 'create', {
    data: { strategy: 'local', email, password },
    params: { provider: 'rest', headers: {} },
  });
  const accessToken = login.result.accessToken;
  const external = (query: Record<string, unknown> = {}) => ({
    provider: 'rest',
    headers: {},
    query,
    authentication: { strategy: 'jwt', accessToken },
  });
  for (let i = 0; i < 10; i++) await app.execute('messages', 'create', { data: { text: `m${i}` }, params: external() });
  const first = (await app.execute('messages', 'find', { params: external({ $limit: 1 }) })).result.data[0];
  const kinds = {
    get: () => app.execute('messages', 'get', { id: first._id, params: external() }),
    find: () => app.execute('messages', 'find', { params: external({ $limit: 10 }) }),
    create: () => app.execute('messages', 'create', { data: { text: 'hello' }, params: external() }),
  };
  const rates: Record<string, number> = {};
  for (const [kind, call] of Object.entries(kinds)) {
    for (let i = 0; i < 2000; i++) await call();
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await call();
    rates[kind] = Math.round(calls / (Number(process.hrtime.bigint() - started) / 1e9));
  }
  console.log(JSON.stringify(rates));
  await composed.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
