import type { Document } from 'bson';
import { Query } from 'mingo';
import { CommandError } from '../base/command-error';
import { fieldOrder } from './field-order';
import { matchView } from './match-view';
import { mingoOptions, type EvaluationSettings } from './mingo-options';
import { splitArrayProjection } from './projection-array-operators';
import { isTextScoreMeta } from './sort-documents';

export type Projector = (docs: Document[]) => Document[];

/** Applies a find projection to `docs` (see `compileProjection`). */
export function projectDocuments(
  docs: Document[],
  projection: unknown,
  filter: Document,
  settings: EvaluationSettings = {},
  scores?: ReadonlyMap<Document, number>,
): Document[] {
  return compileProjection(projection, filter, settings, scores)?.(docs) ?? docs;
}

/**
 * A find projection, set up once for all the batches of a cursor (undefined: nothing to project).
 * mingo does the work, then the fields are put back in the stored document's order (see
 * field-order.ts); `{ $meta: 'textScore' }` fields are filled from the text search's scores.
 */
export function compileProjection(
  projection: unknown,
  filter: Document,
  settings: EvaluationSettings = {},
  scores?: ReadonlyMap<Document, number>,
): Projector | undefined {
  if (projection === undefined || projection === null) return undefined;
  if (typeof projection !== 'object' || Array.isArray(projection))
    throw new CommandError('TypeMismatch', 'projection must be an object');
  const spec = projection as Document;
  if (Object.keys(spec).length === 0) return undefined;
  const order = fieldOrder(spec);
  const metaFields = Object.keys(spec).filter((field) => isTextScoreMeta(spec[field]));
  if (metaFields.length > 0 && !scores)
    throw new CommandError('BadValue', 'query requires text score metadata, but it is not available');
  const rest =
    metaFields.length > 0
      ? Object.fromEntries(Object.entries(spec).filter(([field]) => !metaFields.includes(field)))
      : spec;
  const arrays = splitArrayProjection(rest);
  const mingoSpec = arrays ? arrays.rest : rest;
  const mingoProject =
    mingoSpec && Object.keys(mingoSpec).length > 0
      ? mingoProjection(mingoSpec, filter, settings)
      : (docs: Document[]) => docs;
  const project = arrays
    ? (docs: Document[]) => mingoProject(docs).map((doc, i) => arrays.apply(doc, docs[i]))
    : mingoProject;
  return (docs) => {
    const projected = project(docs);
    const scored =
      metaFields.length === 0
        ? projected
        : projected.map((doc, i) => ({
            ...doc,
            ...Object.fromEntries(metaFields.map((field) => [field, scores!.get(docs[i]) ?? 0])),
          }));
    return scored.map((doc, i) => order(doc, docs[i]));
  };
}

function mingoProjection(projection: Document, filter: Document, settings: EvaluationSettings): Projector {
  // Query.find re-applies its condition; only the positional `$` projection needs the real filter.
  const positional = Object.keys(projection).some((field) => field.endsWith('.$'));
  // `$elemMatch` and `$` compare values, so they run on plain views (numbers unwrapped) like the filter.
  const compares =
    positional ||
    Object.values(projection).some((value) => value !== null && typeof value === 'object' && '$elemMatch' in value);
  const query = new Query(positional ? matchView(filter) : {}, mingoOptions(settings, projection));
  const spec = (compares ? matchView(projection) : projection) as Document;
  return (docs) => query.find(compares ? docs.map((doc) => matchView(doc)) : docs, spec).all() as Document[];
}
