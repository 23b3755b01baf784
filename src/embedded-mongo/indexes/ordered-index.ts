import type { Document } from 'bson';
import { compareBson } from '../query/bson-compare';
import { numberValue } from '../query/bson-numbers';
import { collatorFor, parseCollation, type Collation } from '../query/collation';
import { compileFilter, type DocumentPredicate } from '../query/match';
import type { IndexSpec } from '../storage/index-spec';
import { documentKeys } from './index-keys';
import { compareToBound, inInterval, type FieldInterval, type StringComparator } from './key-bounds';

export interface IndexEntry {
  readonly key: unknown[];
  /** Canonical `_id` key of the document: the tie-breaker that makes every entry unique. */
  readonly id: string;
  readonly doc: Document;
}

/** Counters an index scan reports to explain. */
export interface ScanStats {
  keysExamined: number;
}

/**
 * A secondary index kept as an array of entries sorted by (key, _id). Lookups are binary
 * searches; an insert or delete is a binary search plus one splice (a memmove), cheap enough
 * for collections of a few hundred thousand documents and far simpler than a B-tree.
 */
export class OrderedIndex {
  readonly fields: string[];
  readonly directions: Array<1 | -1>;
  readonly collation?: Collation;
  /** Some document produced several keys: range bounds on one field cannot be intersected. */
  multikey = false;
  private entries: IndexEntry[] = [];
  /** Bumped by every change, so that a suspended scan knows its position has to be found again. */
  private version = 0;
  private readonly compareStrings?: StringComparator;
  private readonly partial?: DocumentPredicate;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.directions = this.fields.map((field) => (numberValue(spec.key[field]) < 0 ? -1 : 1));
    this.collation = parseCollation(spec.collation);
    if (this.collation) {
      const collator = collatorFor(this.collation);
      this.compareStrings = (x, y) => collator.compare(x, y);
    }
    if (spec.partialFilterExpression) this.partial = compileFilter(spec.partialFilterExpression);
  }

  get name(): string {
    return this.spec.name;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Sparse and partial indexes do not hold every document, so they cannot stand in for a scan. */
  get complete(): boolean {
    return !this.spec.sparse && !this.partial;
  }

  build(docs: Iterable<[string, Document]>): void {
    const entries: IndexEntry[] = [];
    for (const [id, doc] of docs) for (const key of this.keysOf(doc)) entries.push({ key, id, doc });
    entries.sort((a, b) => this.compareEntries(a, b));
    this.entries = entries;
    this.version++;
  }

  add(doc: Document, id: string): void {
    for (const key of this.keysOf(doc)) {
      const entry = { key, id, doc };
      const position = this.search(entry);
      if (position === this.entries.length) this.entries.push(entry);
      else this.entries.splice(position, 0, entry);
      this.version++;
    }
  }

  remove(doc: Document, id: string): void {
    for (const key of this.keysOf(doc)) {
      const position = this.search({ key, id, doc });
      const found = this.entries[position];
      if (found && found.id === id && this.compareKeys(found.key, key) === 0) {
        this.entries.splice(position, 1);
        this.version++;
      }
    }
  }

  /**
   * Entries whose leading fields lie in `intervals` (one per leading field, ascending value order),
   * in index order or reversed. Entries between the outer bounds that miss an inner interval
   * are skipped but still counted as examined, as mongod's bounds checker does. The scan may stay
   * suspended across writes (a cursor between two getMores): it then resumes after the last entry
   * it returned, wherever inserts and deletes have moved it.
   */
  *scan(intervals: readonly FieldInterval[], reverse: boolean, stats: ScanStats): Generator<IndexEntry> {
    const start = intervals.map((interval, i) => (this.directions[i] === 1 ? interval.low : interval.high));
    const end = intervals.map((interval, i) => (this.directions[i] === 1 ? interval.high : interval.low));
    let first = this.firstAtLeast(start);
    let last = this.firstAbove(end) - 1;
    let seenVersion = this.version;
    for (let i = reverse ? last : first; reverse ? i >= first : i <= last; i += reverse ? -1 : 1) {
      const entry = this.entries[i];
      stats.keysExamined++;
      if (!intervals.every((interval, f) => inInterval(entry.key[f], interval, this.compareStrings))) continue;
      yield entry;
      if (this.version === seenVersion) continue;
      seenVersion = this.version;
      first = this.firstAtLeast(start);
      last = this.firstAbove(end) - 1;
      const at = this.search(entry);
      const stillThere = this.entries[at] !== undefined && this.compareEntries(this.entries[at], entry) === 0;
      // The loop's step then lands on the first entry after (or, reversed, before) `entry`.
      i = reverse ? at : stillThere ? at : at - 1;
    }
  }

  /** Keys of one document, sorted and without duplicates (`[1, 1]` indexes 1 once). */
  private keysOf(doc: Document): unknown[][] {
    if (this.partial && !this.partial(doc)) return [];
    const { keys, multikey } = documentKeys(doc, this.fields);
    if (this.spec.sparse && keys.every((key) => key.every((value) => value === undefined))) return [];
    if (multikey) this.multikey = true;
    if (keys.length === 1) return keys;
    keys.sort((a, b) => this.compareKeys(a, b));
    return keys.filter((key, i) => i === 0 || this.compareKeys(keys[i - 1], key) !== 0);
  }

  private compareKeys(a: unknown[], b: unknown[]): number {
    for (let i = 0; i < this.fields.length; i++) {
      const order = compareBson(a[i], b[i], this.compareStrings);
      if (order !== 0) return order * this.directions[i];
    }
    return 0;
  }

  private compareEntries(a: IndexEntry, b: IndexEntry): number {
    return this.compareKeys(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  }

  /** Position of `entry`, or where it would be inserted. */
  private search(entry: IndexEntry): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compareEntries(this.entries[mid], entry) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private comparePrefix(key: unknown[], bound: unknown[]): number {
    for (let i = 0; i < bound.length; i++) {
      const order = compareToBound(key[i], bound[i], this.compareStrings) * this.directions[i];
      if (order !== 0) return order;
    }
    return 0;
  }

  private firstAtLeast(bound: unknown[]): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.comparePrefix(this.entries[mid].key, bound) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private firstAbove(bound: unknown[]): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.comparePrefix(this.entries[mid].key, bound) <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
