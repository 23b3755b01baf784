import type { Document } from 'bson';
import { pathValues } from '../storage/path-values';
import type { IndexSpec } from '../storage/index-spec';
import { TEXT_KEY_FIELD } from './text-spec';
import { terms, type TextOptions } from './text-tokens';

/** One weighted field of a text index; `$**` indexes every string in the document. */
interface TextField {
  readonly path: string;
  readonly weight: number;
}

/**
 * A text index: an inverted index from stemmed term to the documents containing it, so a
 * `$text` search only scores documents that share a term with the query.
 */
export class TextIndex {
  readonly fields: TextField[];
  readonly language: string;
  private readonly postings = new Map<string, Map<string, Document>>();

  constructor(readonly spec: IndexSpec) {
    const weights = (spec.weights ?? {}) as Document;
    const named = Object.keys(spec.key).filter((field) => spec.key[field] === 'text' && field !== TEXT_KEY_FIELD);
    const paths = new Set([...named, ...Object.keys(weights)]);
    this.fields = [...paths].map((path) => ({ path, weight: typeof weights[path] === 'number' ? weights[path] : 1 }));
    this.language = typeof spec.default_language === 'string' ? spec.default_language : 'english';
  }

  get name(): string {
    return this.spec.name;
  }

  add(doc: Document, id: string): void {
    for (const term of new Set(this.fields.flatMap((field) => this.fieldTerms(doc, field.path)))) {
      let docs = this.postings.get(term);
      if (!docs) this.postings.set(term, (docs = new Map()));
      docs.set(id, doc);
    }
  }

  remove(doc: Document, id: string): void {
    for (const term of new Set(this.fields.flatMap((field) => this.fieldTerms(doc, field.path)))) {
      const docs = this.postings.get(term);
      if (docs?.get(id) === doc) docs.delete(id);
      if (docs?.size === 0) this.postings.delete(term);
    }
  }

  /** Documents holding any of the terms. */
  documentsWithAny(queryTerms: Iterable<string>): Set<Document> {
    const found = new Set<Document>();
    for (const term of queryTerms) for (const doc of this.postings.get(term)?.values() ?? []) found.add(doc);
    return found;
  }

  /** The indexed strings of a document for one field. */
  fieldTexts(doc: Document, path: string): string[] {
    const values = path === '$**' ? allStrings(doc) : pathValues(doc, path);
    return values.filter((value): value is string => typeof value === 'string');
  }

  /**
   * mongod's per-field score: each term's occurrences add 1, 1/2, 1/4... times the field weight,
   * scaled by (0.5 * occurrences / tokens + 0.5) so short fields rank higher.
   */
  score(doc: Document, queryTerms: ReadonlySet<string>, options: TextOptions): number {
    let total = 0;
    for (const field of this.fields) {
      for (const text of this.fieldTexts(doc, field.path)) {
        const tokens = terms(text, options);
        const counts = new Map<string, number>();
        for (const token of tokens) if (queryTerms.has(token)) counts.set(token, (counts.get(token) ?? 0) + 1);
        for (const count of counts.values()) {
          const frequency = 2 - 2 ** (1 - count);
          total += field.weight * frequency * (0.5 * (count / tokens.length) + 0.5);
        }
      }
    }
    return total;
  }

  private fieldTerms(doc: Document, path: string): string[] {
    return this.fieldTexts(doc, path).flatMap((text) => terms(text, { language: this.language }));
  }
}

function allStrings(value: unknown): unknown[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(allStrings);
  if (value !== null && typeof value === 'object' && value.constructor === Object)
    return Object.values(value).flatMap(allStrings);
  return [];
}
