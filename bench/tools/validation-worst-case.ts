/**
 * The worst inputs we could build for the validation hooks under the request limits (1 MB JSON
 * body, 64 levels; query strings of 1,000 values, arrays of 200, 10 levels), timed in this
 * process against the real DTOs: how long validation holds the event loop and how large the
 * error it answers is. Run it on this tree, or on an older tree of `src/` to compare:
 *
 *   git archive <commit> src | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
 *   node -r @swc-node/register bench/tools/validation-worst-case.ts /tmp/before
 *   node -r @swc-node/register bench/tools/validation-worst-case.ts .
 */
import 'reflect-metadata';
import path from 'node:path';
import { median } from '../lib/stats';

const [rootArgument = '.', runsArgument = '5'] = process.argv.slice(2);
const root = path.resolve(rootArgument);
const runs = Number(runsArgument);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = (module: string) => require(path.join(root, 'src/application', module));

const { validateData } = load('validation/validate-data.hook');
const { validateQuery } = load('validation/validate-query.hook');
const { CreateUserDto, UsersQueryDto } = load('services/users/users.dto');
const { CreateMessageDto, PatchMessageDto, MessagesQueryDto } = load('services/messages/messages.dto');

const BODY_LIMIT = 1024 * 1024;

type Hook = (context: object) => Promise<void>;
interface Case {
  label: string;
  hook: Hook;
  context: () => object;
  body?: unknown;
}

/** An object with as many `k<i>` keys as fit in `bytes` of JSON beside `base`. */
function wide(base: Record<string, unknown>, bytes: number, value: unknown = 'x'): Record<string, unknown> {
  const data: Record<string, unknown> = { ...base };
  let size = JSON.stringify(base).length;
  const valueSize = JSON.stringify(value).length;
  for (let index = 0; size < bytes; index++) {
    data[`k${index}`] = value;
    size += `"k${index}":`.length + valueSize + 1;
  }
  return data;
}

const dataCase = (label: string, hook: Hook, body: unknown): Case => ({
  label,
  hook,
  body,
  context: () => ({ data: structuredClone(body), params: {} }),
});
const queryCase = (label: string, hook: Hook, query: unknown): Case => ({
  label,
  hook,
  context: () => ({ params: { query: structuredClone(query) }, service: { id: '_id' } }),
});

const userSignUp = validateData(CreateUserDto);
const messageCreate = validateData(CreateMessageDto);
const messagePatch = validateData(PatchMessageDto, { partial: true });
const messagesQuery = validateQuery(MessagesQueryDto);
const usersQuery = validateQuery(UsersQueryDto);
const valid = { email: 'a@example.com', password: 'long enough' };
const hundred = (make: (index: number) => unknown) => Array.from({ length: 100 }, (_, index) => make(index));
const twoHundred = (make: (index: number) => unknown) => Array.from({ length: 200 }, (_, index) => make(index));
const nested = (depth: number): unknown => (depth === 0 ? 'x' : [nested(depth - 1)]);

const cases: Case[] = [
  dataCase('POST /users: 95,000 unknown keys (807 KB, the finding)', userSignUp, wide(valid, 807 * 1024)),
  dataCase('POST /users: unknown keys filling 1 MB', userSignUp, wide(valid, BODY_LIMIT - 64)),
  dataCase('POST /users: unknown keys with object values, 1 MB', userSignUp, wide(valid, BODY_LIMIT - 64, { a: 1 })),
  dataCase('PATCH /messages: $inc with unknown keys filling 1 MB', messagePatch, {
    $inc: wide({}, BODY_LIMIT - 64, 1),
  }),
  dataCase('POST /users: three 340 KB strings', userSignUp, {
    email: `${'a'.repeat(340_000)}@example.com`,
    password: 'p'.repeat(340_000),
    name: 'n'.repeat(340_000),
  }),
  dataCase('POST /users: name as an array of 500,000 numbers', userSignUp, {
    ...valid,
    name: Array.from({ length: 500_000 }, () => 0),
  }),
  dataCase('POST /users: name nested 63 arrays deep', userSignUp, { ...valid, name: nested(63) }),
  dataCase('POST /users: every declared field invalid', userSignUp, { email: 1, password: 2, name: 3 }),
  dataCase(
    'POST /messages: 100 valid items (the item limit)',
    messageCreate,
    hundred((index) => ({ text: `message ${index}` })),
  ),
  dataCase(
    'POST /messages: 100 items, each invalid',
    messageCreate,
    hundred(() => ({ text: 1, userId: 2 })),
  ),
  dataCase(
    'POST /messages: 100 valid items of 5 KB text',
    messageCreate,
    hundred(() => ({ text: 't'.repeat(5000), userId: 'u'.repeat(64) })),
  ),
  dataCase(
    'POST /messages: 300,000 empty items',
    messageCreate,
    Array.from({ length: 300_000 }, () => ({})),
  ),
  queryCase(
    'GET /messages: 1,000 unknown fields',
    messagesQuery,
    Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`k${index}`, 'x'])),
  ),
  queryCase('GET /messages: $or of 5 x $in of 200 numbers (1,000 values)', messagesQuery, {
    $or: Array.from({ length: 5 }, () => ({ createdAt: { $in: twoHundred((index) => String(index)) } })),
  }),
  queryCase('GET /messages: $in of 200 invalid numbers x 5', messagesQuery, {
    $or: Array.from({ length: 5 }, () => ({ likes: { $in: twoHundred(() => 'x') } })),
  }),
  queryCase('GET /messages: $or of 200 branches x 5 fields', messagesQuery, {
    $or: twoHundred((index) => ({ text: `t${index}`, userId: 'u', createdAt: '1', read: 'true', likes: '2' })),
  }),
  queryCase('GET /users: email of 900 KB (socket query)', usersQuery, { email: 'e'.repeat(900_000) }),
  queryCase('GET /messages: likes of 900 KB (socket query)', messagesQuery, { likes: '9'.repeat(900_000) }),
  queryCase('GET /messages: createdAt of 900 KB, not a number (socket query)', messagesQuery, {
    createdAt: 'x'.repeat(900_000),
  }),
  queryCase('GET /messages: a 900 KB field name (socket query)', messagesQuery, { ['f'.repeat(900_000)]: 1 }),
];

async function run(
  testCase: Case,
): Promise<{ best: number; ms: number; worst: number; answer: number; outcome: string }> {
  const times: number[] = [];
  let answer = 0;
  let outcome = 'accepted';
  for (let run = 0; run < runs; run++) {
    const context = testCase.context();
    const started = performance.now();
    try {
      await testCase.hook(context);
      outcome = 'accepted';
      answer = 0;
    } catch (error) {
      const json = (error as { toJSON?: () => unknown }).toJSON?.() ?? { message: String(error) };
      answer = JSON.stringify(json).length;
      outcome = `${(error as { code?: number }).code ?? 'error'}`;
    }
    times.push(performance.now() - started);
  }
  return { best: Math.min(...times), ms: median(times), worst: Math.max(...times), answer, outcome };
}

async function main(): Promise<void> {
  console.log(
    `tree: ${root}; ${runs} runs per case; best, median and worst ms of the hook; error bytes = JSON of the answer`,
  );
  console.log('| input | body KB | answer | best ms | median ms | worst ms | error bytes |');
  console.log('|---|---:|---|---:|---:|---:|---:|');
  for (const testCase of cases) {
    const { best, ms, worst, answer, outcome } = await run(testCase);
    const body = testCase.body === undefined ? '' : (JSON.stringify(testCase.body).length / 1024).toFixed(0);
    console.log(
      `| ${testCase.label} | ${body} | ${outcome} | ${best.toFixed(2)} | ${ms.toFixed(2)} | ${worst.toFixed(2)} ` +
        `| ${answer} |`,
    );
  }
}

void main();
