import type { Document } from 'bson';
import { CommandError } from '../commands/command-error';
import type { Catalog } from '../storage/catalog';
import { runPipeline } from './run-pipeline';

/** What reads need from a namespace: a collection, or a view's computed documents. */
export interface ReadSource {
  readonly size: number;
  documents(): Iterable<Document>;
  getById?(id: unknown): Document | undefined;
}

/** Views on views are resolved recursively; mongod caps the depth at 20 as well. */
const MAX_VIEW_DEPTH = 20;

/** The namespace as something to read: views (`create` with `viewOn`) run their pipeline first. */
export function readSource(catalog: Catalog, db: string, name: string, depth = 0): ReadSource | undefined {
  const store = catalog.getCollection(db, name);
  const viewOn = store?.options.viewOn;
  if (!store || typeof viewOn !== 'string') return store;
  if (depth >= MAX_VIEW_DEPTH) throw new CommandError('BadValue', `view depth too deep or view cycle detected at ${db}.${name}`);
  const docs = runPipeline({ catalog, db, collection: viewOn, pipeline: store.options.pipeline ?? [], viewDepth: depth + 1 });
  return { size: docs.length, documents: () => docs };
}
