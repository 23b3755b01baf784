import { ObjectId, type Document } from 'bson';
import { Aggregator } from 'mingo';
import { CommandError } from '../base/command-error';
import type { Catalog } from '../storage/catalog';
import type { CollectionStore } from '../storage/collection-store';
import { duplicateKeyError } from '../storage/duplicate-key';
import { getPath } from '../storage/path-values';
import { valueKey } from '../storage/value-key';
import { idFirst } from './id-first';
import { mingoOptions } from './mingo-options';

/** Executes a trailing `$out` or `$merge` stage against the catalog. */
export function writePipelineOutput(
  catalog: Catalog,
  db: string,
  stage: Document,
  results: Document[],
  variables?: Document,
): void {
  if ('$out' in stage) {
    const target = parseTarget(stage.$out, db, '$out');
    replaceContents(catalog.ensureCollection(target.db, target.coll).store, results);
    return;
  }
  const spec = typeof stage.$merge === 'string' ? { into: stage.$merge } : (stage.$merge as Document);
  const target = parseTarget(spec.into, db, '$merge');
  const store = catalog.ensureCollection(target.db, target.coll).store;
  const on = spec.on === undefined ? ['_id'] : Array.isArray(spec.on) ? (spec.on as string[]) : [spec.on as string];
  for (const doc of results) mergeOne(store, withId(doc), on, spec, variables);
}

function parseTarget(raw: unknown, db: string, stageName: string): { db: string; coll: string } {
  if (typeof raw === 'string') return { db, coll: raw };
  if (raw && typeof raw === 'object' && typeof (raw as Document).coll === 'string') {
    const target = raw as Document;
    return { db: typeof target.db === 'string' ? target.db : db, coll: target.coll as string };
  }
  throw new CommandError('TypeMismatch', `${stageName} target must be a collection name or { db, coll }`);
}

/** `$out` is all-or-nothing: on a failure the previous contents come back. */
function replaceContents(store: CollectionStore, results: Document[]): void {
  const previous = [...store.documents()];
  for (const doc of previous) store.delete(doc);
  const inserted: Document[] = [];
  try {
    for (const doc of results) {
      const stored = withId(doc);
      store.insert(stored);
      inserted.push(stored);
    }
  } catch (error) {
    for (const doc of inserted) store.delete(doc);
    for (const doc of previous) store.insert(doc);
    throw error;
  }
}

function mergeOne(store: CollectionStore, doc: Document, on: string[], spec: Document, variables?: Document): void {
  const existing = findByFields(store, doc, on);
  if (!existing) {
    const whenNotMatched = spec.whenNotMatched ?? 'insert';
    if (whenNotMatched === 'discard') return;
    if (whenNotMatched === 'fail') {
      throw new CommandError(
        'MergeStageNoMatchingDocument',
        '$merge could not find a matching document in the target collection',
      );
    }
    store.insert(doc);
    return;
  }
  const whenMatched = spec.whenMatched ?? 'merge';
  if (whenMatched === 'keepExisting') return;
  if (whenMatched === 'fail') throw duplicateKeyError(store.namespace, '_id_', { _id: 1 }, { _id: existing._id });
  let next: Document;
  if (whenMatched === 'replace') next = { ...doc, _id: existing._id };
  else if (whenMatched === 'merge') next = { ...existing, ...doc, _id: existing._id };
  else if (Array.isArray(whenMatched))
    next = runMatchedPipeline(existing, doc, whenMatched as Document[], spec.let, variables);
  else throw new CommandError('BadValue', `unsupported $merge whenMatched mode: ${String(whenMatched)}`);
  store.replace(existing, idFirst(next), whenMatched === 'replace');
}

function runMatchedPipeline(
  existing: Document,
  incoming: Document,
  pipeline: Document[],
  letSpec: unknown,
  variables?: Document,
): Document {
  const letValues = letSpec && typeof letSpec === 'object' ? (letSpec as Document) : { new: '$$ROOT' };
  const bound: Document = { ...variables };
  const [evaluated] = new Aggregator([{ $replaceWith: letValues }], mingoOptions({}, letValues)).run<Document>([
    incoming,
  ]);
  Object.assign(bound, evaluated);
  const [result] = new Aggregator(pipeline, mingoOptions({ variables: bound }, pipeline)).run<Document>([
    { ...existing },
  ]);
  return { ...result, _id: existing._id };
}

function findByFields(store: CollectionStore, doc: Document, on: string[]): Document | undefined {
  if (on.length === 1 && on[0] === '_id') return store.getById(doc._id);
  const wanted = on.map((field) => valueKey(getPath(doc, field) ?? null));
  for (const candidate of store.documents()) {
    if (on.every((field, i) => valueKey(getPath(candidate, field) ?? null) === wanted[i])) return candidate;
  }
  return undefined;
}

function withId(doc: Document): Document {
  return '_id' in doc ? idFirst(doc) : { _id: new ObjectId(), ...doc };
}
