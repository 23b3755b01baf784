import type { Document } from 'bson';
import { candidateDocuments } from './candidate-documents';
import type { Collation } from './collation';
import { asFilter, compileFilter } from './match';
import { projectDocuments } from './projection';
import type { ReadSource } from './read-source';
import { sortDocuments } from './sort-documents';

export interface FindSpec {
  readonly filter?: unknown;
  readonly sort?: Array<[string, 1 | -1]>;
  readonly skip?: number;
  /** 0 or undefined: no limit. */
  readonly limit?: number;
  readonly projection?: unknown;
  readonly collation?: Collation;
  readonly variables?: Document;
}

/**
 * Runs a query against one collection: candidates (via `_id` when possible), predicate, sort,
 * skip, limit, projection. Without a sort it stops as soon as skip + limit documents matched.
 */
export function findDocuments(store: ReadSource | undefined, spec: FindSpec): Document[] {
  if (!store) return [];
  const filter = asFilter(spec.filter);
  const settings = { collation: spec.collation, variables: spec.variables };
  const candidates = candidateDocuments(store, filter, spec.collation);
  // An exact `_id` lookup needs no predicate: compiling one costs more than the lookup itself.
  const matches = candidates.exact ? () => true : compileFilter(filter, settings);
  const skip = spec.skip ?? 0;
  const limit = spec.limit && spec.limit > 0 ? spec.limit : Infinity;
  const stopAfter = spec.sort ? Infinity : skip + limit;
  let selected: Document[] = [];
  for (const doc of candidates.docs) {
    if (selected.length >= stopAfter) break;
    if (matches(doc)) selected.push(doc);
  }
  if (spec.sort) selected = sortDocuments(selected, spec.sort, spec.collation);
  if (skip > 0 || limit !== Infinity) selected = selected.slice(skip, skip + limit);
  return projectDocuments(selected, spec.projection, filter, settings);
}
