import type { Document } from 'bson';
import { Query } from 'mingo';
import { CommandError } from '../commands/command-error';
import { foldsStrings, foldValue } from './collation';
import { mingoOptions, type EvaluationSettings } from './mingo-options';

export type DocumentPredicate = (doc: Document) => boolean;

const MATCH_ALL: DocumentPredicate = () => true;

/**
 * Compiles a query filter. mingo ignores collation when matching, so under a case- or
 * accent-insensitive collation both the filter and each candidate are folded first.
 */
export function compileFilter(filter: unknown, settings: EvaluationSettings = {}): DocumentPredicate {
  const criteria = asFilter(filter);
  if (Object.keys(criteria).length === 0) return MATCH_ALL;
  if ('$text' in criteria) throw new CommandError('BadValue', 'text index required for $text query');
  const { collation } = settings;
  if (!foldsStrings(collation)) {
    const query = new Query(criteria, mingoOptions(settings, criteria));
    return (doc) => query.test(doc);
  }
  const query = new Query(foldValue(criteria, collation.strength) as Document, mingoOptions({ ...settings, collation: undefined }, criteria));
  return (doc) => query.test(foldValue(doc, collation.strength) as Document);
}

/** A filter must be a document; absent means everything. */
export function asFilter(filter: unknown): Document {
  if (filter === undefined || filter === null) return {};
  if (typeof filter !== 'object' || Array.isArray(filter)) throw new CommandError('TypeMismatch', 'filter must be an object');
  return filter as Document;
}
