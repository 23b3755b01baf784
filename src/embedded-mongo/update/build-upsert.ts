import type { Document } from 'bson';
import { applyUpdate, isOperatorUpdate } from './apply-update';
import { upsertSeed } from './upsert-seed';
import { prepareForStorage } from './validate-document';

export interface UpsertSettings {
  readonly filter: Document;
  readonly update: unknown;
  readonly arrayFilters?: Document[];
  readonly variables?: Document;
}

/**
 * The document an upsert inserts: operator and pipeline updates start from the query's equality
 * fields; a replacement keeps only the query's `_id`. A missing `_id` is generated.
 */
export function buildUpsert(settings: UpsertSettings): Document {
  const seed = upsertSeed(settings.filter);
  const start =
    isOperatorUpdate(settings.update) || Array.isArray(settings.update) ? seed : '_id' in seed ? { _id: seed._id } : {};
  const { doc } = applyUpdate(start, settings.update, {
    filter: settings.filter,
    arrayFilters: settings.arrayFilters,
    variables: settings.variables,
    inserting: true,
  });
  return prepareForStorage(doc);
}
