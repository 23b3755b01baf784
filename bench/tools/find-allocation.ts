/**
 * A before/after check of what the server's own `find` and `aggregate` commands allocate per call,
 * in this process (no driver, no wire): run it once on this tree and once on an older tree of
 * `src/` to compare. Not part of `npm run bench`, whose `large` suite measures through the driver.
 *
 *   git archive <commit> src | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
 *   node --expose-gc --max-old-space-size=8000 -r @swc-node/register bench/tools/find-allocation.ts /tmp/before 1000000
 *   node --expose-gc --max-old-space-size=8000 -r @swc-node/register bench/tools/find-allocation.ts . 1000000
 */
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import type { Document, Long } from 'bson';
import { largeDocument } from '../lib/write-data-folder';

type Handler = (command: Document, context: unknown) => Document;

const [rootArgument = '.', sizeArgument = '10000'] = process.argv.slice(2);
const root = path.resolve(rootArgument);
const size = Number(sizeArgument);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !Number.isSafeInteger(size) || size <= 0) {
  console.error(
    'usage: node --expose-gc -r @swc-node/register bench/tools/find-allocation.ts <tree with src/> <documents>',
  );
  process.exit(1);
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = (module: string) => require(path.join(root, 'src/embedded-mongo', module));

const { Catalog } = load('storage/catalog');
const { MemoryStorageEngine } = load('storage/memory-storage-engine');
const { CursorRegistry } = load('cursor-registry');
const { findCommand } = load('commands/find.command') as { findCommand: Handler };
const { aggregateCommand } = load('commands/aggregate.command') as { aggregateCommand: Handler };

const catalog = new Catalog(new MemoryStorageEngine());
const store = catalog.ensureCollection('bench', 'large').store;
store.createIndex({ v: 2, key: { n: 1 }, name: 'n_1' });
for (let n = 0; n < size; n++) store.insert(largeDocument(n));
const cursors = new CursorRegistry();
const context = { db: 'bench', catalog, cursors, sessions: { list: () => [] }, connectionId: 1, server: {} };
const closeCursor = (reply: Document) => {
  const id = reply.cursor.id as Long;
  if (!id.isZero()) cursors.kill(id);
};

/** Heap growth per call over `calls` calls after a full collection; the median of three windows. */
function allocationPerCall(label: string, call: () => void, calls: number): void {
  call();
  const perCall: number[] = [];
  for (let window = 0; window < 3; window++) {
    gc!();
    const before = getHeapStatistics().used_heap_size;
    for (let i = 0; i < calls; i++) call();
    perCall.push((getHeapStatistics().used_heap_size - before) / calls);
  }
  perCall.sort((a, b) => a - b);
  console.log(`${size} documents, ${label}: ${(perCall[1] / 1024).toFixed(1)} KB per call`);
}

allocationPerCall(
  'find, limit 10',
  () => closeCursor(findCommand({ find: 'large', filter: {}, limit: 10 }, context)),
  20,
);
allocationPerCall(
  'find, first batch (101)',
  () => closeCursor(findCommand({ find: 'large', filter: {} }, context)),
  20,
);
allocationPerCall(
  'find sorted by the index on n, first batch',
  () => closeCursor(findCommand({ find: 'large', filter: {}, sort: { n: -1 } }, context)),
  20,
);
allocationPerCall(
  'aggregate [$addFields], first batch',
  () =>
    closeCursor(aggregateCommand({ aggregate: 'large', pipeline: [{ $addFields: { x: 1 } }], cursor: {} }, context)),
  2,
);
