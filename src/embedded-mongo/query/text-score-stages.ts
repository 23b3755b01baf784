import type { Document } from 'bson';
import { isTextScoreMeta } from './sort-documents';

/** Hidden field carrying each document's text score through the mingo stages of a pipeline. */
export const SCORE_FIELD = '__embeddedTextScore';

/**
 * mingo knows no `$meta`: after a `$text` match the score travels as a hidden field, every
 * `{ $meta: 'textScore' }` expression becomes a reference to it and a `$sort` on it sorts descending.
 */
export function rewriteTextScoreStages(stages: Document[]): Document[] {
  return stages.map((stage) => {
    if (stage.$sort && typeof stage.$sort === 'object') {
      return {
        $sort: Object.fromEntries(
          Object.entries(stage.$sort as Document).map(([field, value]) =>
            isTextScoreMeta(value) ? [SCORE_FIELD, -1] : [field, value],
          ),
        ),
      };
    }
    return replaceMeta(stage) as Document;
  });
}

function replaceMeta(value: unknown): unknown {
  if (isTextScoreMeta(value)) return `$${SCORE_FIELD}`;
  if (Array.isArray(value)) return value.map(replaceMeta);
  if (value === null || typeof value !== 'object' || value.constructor !== Object) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, replaceMeta(inner)]));
}

export function withScore(doc: Document, scores: ReadonlyMap<Document, number>): Document {
  return { ...doc, [SCORE_FIELD]: scores.get(doc) ?? 0 };
}

export function withoutScore(doc: Document): Document {
  if (!(SCORE_FIELD in doc)) return doc;
  const { [SCORE_FIELD]: _score, ...rest } = doc;
  return rest;
}
