import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { duplicateKeyError } from './duplicate-key';
import { CappedBound } from './capped-bound';
import { ID_INDEX, isIdKey, sameIndexOptions, sameKey, type IndexSpec } from './index-spec';
import type { PersistedCollection, WriteEvent } from './storage-engine';
import { SecondaryIndexes } from '../indexes/secondary-indexes';
import { assertSingleTextIndex, normalizeTextSpec } from '../indexes/text-spec';
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
  /** Set for capped collections: inserts past the bound remove the oldest documents. */
  private readonly capped?: CappedBound;

  constructor(
    readonly db: string,
    readonly name: string,
    private currentOptions: Document,
    private readonly record: (event: WriteEvent) => void,
  ) {
    this.capped = CappedBound.of(currentOptions);
  }

  /** The options given at create, as changed by collMod since. */
  get options(): Document {
    return this.currentOptions;
  }

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
    if (this.capped) this.evictOldest(doc);
  }

  /**
   * Replaces `previous` by `next`; both carry the same `_id` (callers enforce immutability). `replacement`: a
   * whole-document replace, not an update.
   */
  replace(previous: Document, next: Document, replacement = false): void {
    this.assertWritable();
    const id = valueKey(previous._id);
    this.secondary.assertUnique(next, id);
    this.secondary.remove(previous, id);
    this.secondary.add(next, id);
    this.docs.set(id, next);
    this.capped?.removed(previous);
    this.capped?.added(next);
    this.record({
      type: 'replace',
      db: this.db,
      collection: this.name,
      doc: next,
      previous,
      ...(replacement ? { replacement } : {}),
    });
  }

  delete(doc: Document): void {
    const id = valueKey(doc._id);
    if (!this.docs.delete(id)) return;
    this.secondary.remove(doc, id);
    this.capped?.removed(doc);
    this.record({ type: 'delete', db: this.db, collection: this.name, id: doc._id, previous: doc });
  }

  indexes(): readonly IndexSpec[] {
    return this.indexSpecs;
  }

  /** Adds an index; returns false when an identical one already exists. */
  createIndex(requested: IndexSpec): boolean {
    // also upgrades text specs persisted before keys took mongod's `_fts` form
    const spec = normalizeTextSpec(requested);
    const byName = this.indexSpecs.find((existing) => existing.name === spec.name);
    if (byName) {
      if (sameKey(byName.key, spec.key) && sameIndexOptions(byName, spec)) return false;
      throw new CommandError(
        'IndexKeySpecsConflict',
        `An existing index has the same name as the requested index: ${spec.name}`,
      );
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

  /** collMod of the collection's options (validator, validation level and action). */
  modify(options: Document): void {
    this.currentOptions = options;
    this.record({ type: 'modifyCollection', db: this.db, collection: this.name, options });
  }

  /** collMod of one index (hidden, expireAfterSeconds): the same index under new options. */
  modifyIndex(spec: IndexSpec): void {
    const position = this.indexSpecs.findIndex((existing) => existing.name === spec.name);
    if (position < 0)
      throw new CommandError('IndexNotFound', `cannot find index ${spec.name} for ns ${this.namespace}`);
    this.indexSpecs[position] = spec;
    this.secondary.setHidden(spec.name, spec.hidden === true);
    this.record({ type: 'modifyIndex', db: this.db, collection: this.name, spec });
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

  /** Removes the oldest documents (natural order) until the bound holds again; never the one just inserted. */
  private evictOldest(inserted: Document): void {
    this.capped!.added(inserted);
    for (const oldest of this.docs.values()) {
      if (oldest === inserted || !this.capped!.exceeded(this.docs.size)) return;
      this.delete(oldest);
    }
  }

  private assertWritable(): void {
    if (this.options.viewOn !== undefined) {
      throw new CommandError('CommandNotSupportedOnView', `Namespace ${this.namespace} is a view, not a collection`);
    }
  }
}
