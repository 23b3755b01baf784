import type { Document } from 'bson';
import { parseCollation, stringFoldFor } from '../query/collation';
import { matchView } from '../query/match-view';
import { compileFilter, type DocumentPredicate } from '../query/match';
import { getPath, pathValues } from './path-values';
import { valueKey } from './value-key';
import type { IndexSpec } from './index-spec';

/** Compound keys over several array fields explode combinatorially; mongod refuses such documents too. */
const MAX_KEYS_PER_DOCUMENT = 10_000;

/**
 * Enforces one unique index: a Map from the canonical key string to the `_id` key of the owner.
 * Array values produce one entry per element (multikey), as in mongod. Under an index collation
 * strings are folded first, so 'A' and 'a' collide at strength 2.
 */
export class UniqueIndex {
  private readonly owners = new Map<string, string>();
  private readonly fields: string[];
  private readonly partial?: DocumentPredicate;
  private readonly fold?: (value: string) => string;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    if (spec.partialFilterExpression) this.partial = compileFilter(spec.partialFilterExpression);
    this.fold = stringFoldFor(parseCollation(spec.collation));
  }

  /** The `_id` key of another document holding one of `doc`'s keys, if any. */
  findConflict(doc: Document, selfId: string): string | undefined {
    for (const key of this.keysOf(doc)) {
      const owner = this.owners.get(key);
      if (owner !== undefined && owner !== selfId) return owner;
    }
    return undefined;
  }

  add(doc: Document, id: string): void {
    for (const key of this.keysOf(doc)) this.owners.set(key, id);
  }

  remove(doc: Document, id: string): void {
    for (const key of this.keysOf(doc)) {
      if (this.owners.get(key) === id) this.owners.delete(key);
    }
  }

  /** `{ field: value }` for the error's keyValue (first value on each path, null when missing). */
  keyValueOf(doc: Document): Document {
    const out: Document = {};
    for (const field of this.fields) out[field] = getPath(doc, field) ?? null;
    return out;
  }

  private keysOf(doc: Document): string[] {
    if (this.partial && !this.partial(doc)) return [];
    const perField = this.fields.map((field) => pathValues(doc, field));
    if (this.spec.sparse && perField.every((values) => values.length === 1 && values[0] === undefined)) return [];
    let keys = [''];
    for (const values of perField) {
      const unique = [...new Set(values.map((value) => valueKey(this.fold ? matchView(value, this.fold) : value)))];
      const next: string[] = [];
      for (const prefix of keys) for (const part of unique) next.push(prefix === '' ? part : `${prefix}|${part}`);
      if (next.length > MAX_KEYS_PER_DOCUMENT) throw new Error('too many index keys for one document');
      keys = next;
    }
    return keys;
  }
}
