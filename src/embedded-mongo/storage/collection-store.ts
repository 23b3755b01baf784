import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { duplicateKeyError } from './duplicate-key';
import { ID_INDEX, isIdKey, sameKey, type IndexSpec } from './index-spec';
import type { PersistedCollection, WriteEvent } from './storage-engine';
import { SecondaryIndexes } from '../indexes/secondary-indexes';
import { assertSingleTextIndex } from '../indexes/text-spec';
import { valueKey } from './value-key';

/**
 * The documents of one collection, in insertion (natural) order, keyed by canonical `_id`.
 * Stored documents are never mutated: writers pass a new object, so cursors holding earlier
 * results keep a consistent view without copying.
 */
export class CollectionStore {
  private readonly docs = new Map<string, Document>();
  private readonly indexSpecs: IndexSpec[] = [ID_INDEX];
  /** Ordered, unique and text indexes, maintained on every write (see indexes/). */
  readonly secondary = new SecondaryIndexes(() => this.namespace);

  constructor(
    readonly db: string,
    readonly name: string,
    readonly options: Document,
    private readonly record: (event: WriteEvent) => void,
  ) {}

  get namespace(): string {
    return `${this.db}.${this.name}`;
  }

  get size(): number {
    return this.docs.size;
  }

  documents(): IterableIterator<Document> {
    return this.docs.values();
  }

  getById(id: unknown): Document | undefined {
    return this.docs.get(valueKey(id));
  }

  insert(doc: Document): void {
    this.assertWritable();
    const id = valueKey(doc._id);
    if (this.docs.has(id)) throw duplicateKeyError(this.namespace, '_id_', { _id: 1 }, { _id: doc._id });
    this.secondary.assertUnique(doc, id);
    this.secondary.add(doc, id);
    this.docs.set(id, doc);
    this.record({ type: 'insert', db: this.db, collection: this.name, doc });
  }

  /** Replaces `previous` by `next`; both carry the same `_id` (callers enforce immutability). */
  replace(previous: Document, next: Document): void {
    this.assertWritable();
    const id = valueKey(previous._id);
    this.secondary.assertUnique(next, id);
    this.secondary.remove(previous, id);
    this.secondary.add(next, id);
    this.docs.set(id, next);
    this.record({ type: 'replace', db: this.db, collection: this.name, doc: next, previous });
  }

  delete(doc: Document): void {
    const id = valueKey(doc._id);
    if (!this.docs.delete(id)) return;
    this.secondary.remove(doc, id);
    this.record({ type: 'delete', db: this.db, collection: this.name, id: doc._id, previous: doc });
  }

  indexes(): readonly IndexSpec[] {
    return this.indexSpecs;
  }

  /** Adds an index; returns false when an identical one already exists. */
  createIndex(spec: IndexSpec): boolean {
    const byName = this.indexSpecs.find((existing) => existing.name === spec.name);
    if (byName) {
      if (sameKey(byName.key, spec.key) && Boolean(byName.unique) === Boolean(spec.unique)) return false;
      throw new CommandError('IndexKeySpecsConflict', `An existing index has the same name as the requested index: ${spec.name}`);
    }
    const byKey = this.indexSpecs.find((existing) => sameKey(existing.key, spec.key));
    if (byKey && !isIdKey(spec.key)) {
      throw new CommandError('IndexOptionsConflict', `Index already exists with a different name: ${byKey.name}`);
    }
    if (isIdKey(spec.key)) return false;
    assertSingleTextIndex(this.indexSpecs, spec);
    this.secondary.create(spec, this.docs);
    this.indexSpecs.push(spec);
    this.record({ type: 'createIndex', db: this.db, collection: this.name, spec });
    return true;
  }

  /** Drops by name; throws IndexNotFound. The `_id` index cannot be dropped. */
  dropIndex(name: string): void {
    if (name === '_id_') throw new CommandError('InvalidOptions', 'cannot drop _id index');
    const position = this.indexSpecs.findIndex((spec) => spec.name === name);
    if (position < 0) throw new CommandError('IndexNotFound', `index not found with name [${name}]`);
    this.indexSpecs.splice(position, 1);
    this.secondary.drop(name);
    this.record({ type: 'dropIndex', db: this.db, collection: this.name, name });
  }

  snapshot(): PersistedCollection {
    return {
      db: this.db,
      collection: this.name,
      options: this.options,
      indexes: this.indexSpecs.filter((spec) => spec.name !== '_id_'),
      documents: [...this.docs.values()],
    };
  }

  private assertWritable(): void {
    if (this.options.viewOn !== undefined) {
      throw new CommandError('CommandNotSupportedOnView', `Namespace ${this.namespace} is a view, not a collection`);
    }
  }
}
