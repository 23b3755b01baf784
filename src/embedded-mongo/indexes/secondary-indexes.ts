import type { Document } from 'bson';
import { duplicateKeyError } from '../storage/duplicate-key';
import type { IndexSpec } from '../storage/index-spec';
import { UniqueIndex } from '../storage/unique-index';
import { OrderedIndex } from './ordered-index';
import { TextIndex } from './text-index';
import { isTextSpec } from './text-spec';

/**
 * The non-`_id` indexes of one collection, kept in step with every write: an ordered index per
 * spec for queries and sorts, a hash index per unique spec for O(1) duplicate checks, and at
 * most one text index. The collection store calls `assertUnique` before any change, then
 * `remove` / `add`, so a refused write leaves every index untouched.
 */
export class SecondaryIndexes {
  private unique: UniqueIndex[] = [];
  private ordered: OrderedIndex[] = [];
  private text?: TextIndex;
  /** Hidden indexes are maintained (and unique ones enforced) but never offered to the planner. */
  private readonly hidden = new Set<string>();

  constructor(private readonly namespace: () => string) {}

  /** Builds the index over the current documents; a duplicate refuses the whole index. */
  create(spec: IndexSpec, docs: Iterable<[string, Document]>): void {
    const entries = [...docs];
    this.setHidden(spec.name, spec.hidden === true);
    if (isTextSpec(spec)) {
      const text = new TextIndex(spec);
      for (const [id, doc] of entries) text.add(doc, id);
      this.text = text;
      return;
    }
    if (spec.unique) {
      const index = new UniqueIndex(spec);
      for (const [id, doc] of entries) {
        if (index.findConflict(doc, id) !== undefined)
          throw duplicateKeyError(this.namespace(), spec.name, spec.key, index.keyValueOf(doc));
        index.add(doc, id);
      }
      this.unique.push(index);
    }
    const ordered = new OrderedIndex(spec);
    ordered.build(entries);
    this.ordered.push(ordered);
  }

  drop(name: string): void {
    this.unique = this.unique.filter((index) => index.spec.name !== name);
    this.ordered = this.ordered.filter((index) => index.name !== name);
    if (this.text?.name === name) this.text = undefined;
    this.hidden.delete(name);
  }

  setHidden(name: string, hidden: boolean): void {
    if (hidden) this.hidden.add(name);
    else this.hidden.delete(name);
  }

  assertUnique(doc: Document, id: string): void {
    for (const index of this.unique) {
      if (index.findConflict(doc, id) !== undefined) {
        throw duplicateKeyError(this.namespace(), index.spec.name, index.spec.key, index.keyValueOf(doc));
      }
    }
  }

  add(doc: Document, id: string): void {
    for (const index of this.unique) index.add(doc, id);
    for (const index of this.ordered) index.add(doc, id);
    this.text?.add(doc, id);
  }

  remove(doc: Document, id: string): void {
    for (const index of this.unique) index.remove(doc, id);
    for (const index of this.ordered) index.remove(doc, id);
    this.text?.remove(doc, id);
  }

  /** The indexes queries may use (hidden ones excluded). */
  orderedIndexes(): readonly OrderedIndex[] {
    return this.hidden.size === 0 ? this.ordered : this.ordered.filter((index) => !this.hidden.has(index.name));
  }

  textIndex(): TextIndex | undefined {
    return this.text && !this.hidden.has(this.text.name) ? this.text : undefined;
  }
}
