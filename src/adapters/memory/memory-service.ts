import { Context } from 'mingo/core';
import * as queryOperators from 'mingo/operators/query';
import { Query } from 'mingo/query';
import { AdapterBase } from '../../application/adapter/adapter-base';
import { selectFields } from '../../application/adapter/select-fields';
import { isPaginating } from '../../application/query/pagination';
import { BadRequest, Conflict, NotFound } from '../../domain/errors';
import { echo } from '../../domain/echo';
import type { Id, NullableId } from '../../domain/id';
import type { Paginated } from '../../domain/paginated';
import { isEmptyQuery, type Query as ServiceQuery } from '../../domain/query';
import type { ServiceOptions } from '../../ports/service-options';
import type { Params } from '../../ports/service-params';
import { cloneRecord, copyStoredRecord } from './clone-record';
import { idsNamedBy, InsertionPositions, type LookupId } from './id-lookup';
import { applyMemoryPatch, compileMemoryPatch, MEMORY_UPDATE_OPERATORS } from './memory-patch';
import { EXPIRY_SWEEP_MS, hasExpired, type RecordExpiry } from './record-expiry';
import { assertUniqueFields } from './unique-fields';

export interface MemoryServiceOptions<T> extends ServiceOptions {
  /** Records to start with, keyed by id. */
  store?: Record<string, T>;
  /** The first generated id; ids count up from it (deterministic). */
  startId?: number;
  /**
   * Update operators patch data may carry, as in DatabaseService; the memory adapter knows
   * `$inc` and `$set`. Default none: any `$` key in patch data is a 400.
   */
  updateOperators?: string[];
  /**
   * Fields whose values must differ between records (like a unique index): 409 otherwise. A list
   * of fields is one compound key (like a compound unique index).
   */
  unique?: (string | string[])[];
  /**
   * TTL indexes, as MongoDB's: records whose field holds a date (or an array with one) at least
   * that many seconds old are removed, without events, once a minute at most, when a record is
   * created (what makes such a store grow).
   */
  expireAfter?: RecordExpiry[];
}

type AnyRecord = Record<string, any>;

/**
 * mingo with its query operators only: this adapter matches conditions with it and does sorting
 * and `$select` itself, and `$expr` is never allowed, so the rest of mingo (about 6 MB of resident
 * memory) is not loaded.
 */
const QUERY_OPTIONS = { context: Context.init({ query: queryOperators }) };

/**
 * An in-memory store adapter with MongoDB query semantics (mingo). The reference adapter for the
 * contract suite, a test double for the port, and the `STORE=memory` backend.
 */
export class MemoryService<
  T extends AnyRecord = AnyRecord,
  D = Partial<T>,
  P extends Params = Params,
> extends AdapterBase<T, D, P, MemoryServiceOptions<T>> {
  readonly store = new Map<string, T>();
  /** Held in an object: the app's wrapper (`Object.create(service)`) must not shadow a counter with its own copy. */
  private readonly ids: { next: number };
  /**
   * Where each record stands in `store`, so that a query naming only ids is answered by lookups
   * in the order a scan gives; `byKey.ok` holds while every record's key is its string or number id.
   */
  private readonly byKey: { positions: InsertionPositions; ok: boolean } = {
    positions: new InsertionPositions(),
    ok: true,
  };
  /** When expired records were last looked for (an object, for the same reason as `ids`). */
  private readonly expirySweep = { at: Date.now() };

  constructor(options: MemoryServiceOptions<T> = {}) {
    super(options, 'id');
    const unknown = (options.updateOperators ?? []).filter((operator) => !MEMORY_UPDATE_OPERATORS.includes(operator));
    if (unknown.length > 0)
      throw new Error(
        `MemoryService supports the update operators ${MEMORY_UPDATE_OPERATORS.join(', ')}, not ${unknown.join(', ')}`,
      );
    this.ids = { next: options.startId ?? 0 };
    for (const [key, record] of Object.entries(options.store ?? {})) this.put(key, cloneRecord(record));
  }

  async _find(params: P = {} as P): Promise<T[] | Paginated<T>> {
    const paginate = this.option(params, 'paginate');
    const { filters, query } = this.filterQuery(params);
    const skip = filters.$skip ?? 0;
    const end = filters.$limit === undefined ? undefined : skip + filters.$limit;
    const sorted = filters.$sort !== undefined && Object.keys(filters.$sort).length > 0;
    // Filter and sort references; only the returned page is copied.
    let total: number;
    let data: T[];
    if (!sorted && isEmptyQuery(query)) {
      total = this.store.size;
      data = this.copyPage(this.store.values(), skip, end ?? total, filters.$select);
    } else {
      const matches = this.matching(query);
      total = matches.length;
      if (sorted) sortRecords(matches, filters.$sort!);
      data = this.copyPage(matches.values(), skip, end ?? total, filters.$select);
    }
    if (!isPaginating(paginate)) return data;
    return { total, limit: filters.$limit ?? total, skip, data };
  }

  async _get(id: Id, params: P = {} as P): Promise<T> {
    const { filters, query } = this.filterQuery(params);
    const record = this.store.get(String(id));
    if (!record || !matchesQuery(record, query)) throw new NotFound(`No record found for id '${echo(id)}'`);
    return copyStoredRecord(selectFields(record, filters.$select, this.id));
  }

  async _create(data: D | D[], params: P = {} as P): Promise<T | T[]> {
    const { filters } = this.filterQuery(params);
    this.removeExpired();
    const records = (Array.isArray(data) ? data : [data]).map((item) => cloneRecord(item as unknown as AnyRecord) as T);
    // Check every id first so a batch with a duplicate stores nothing (like a unique index would refuse it).
    const keys = new Set<string>();
    for (const record of records) {
      if (record[this.id] === undefined) continue;
      const key = String(record[this.id]);
      if (this.store.has(key) || keys.has(key))
        throw new Conflict(`A record with ${this.id} '${echo(key)}' already exists`, { fields: [this.id] });
      keys.add(key);
    }
    assertUniqueFields(records, this.store, this.id, this.options.unique ?? []);
    const created = records.map((record) => {
      (record as AnyRecord)[this.id] ??= this.options.generateId ? this.options.generateId() : this.ids.next++;
      this.put(String(record[this.id]), record);
      return copyStoredRecord(selectFields(record, filters.$select, this.id));
    });
    return Array.isArray(data) ? created : created[0];
  }

  async _update(id: Id, data: D, params: P = {} as P): Promise<T> {
    // Read, build and store with no await in between, so a concurrent patch of a kept field
    // (a like) lands either before this replacement, which keeps it, or after it.
    const { filters, query } = this.filterQuery(params);
    const [existing] = this.targets(id, query);
    const record: AnyRecord = cloneRecord(data as unknown as AnyRecord);
    for (const field of this.option(params, 'keepOnReplace') ?? []) {
      if (existing[field] !== undefined) record[field] = cloneRecord(existing[field]);
    }
    record[this.id] = existing[this.id];
    assertUniqueFields([record as T], this.store, this.id, this.options.unique ?? []);
    this.put(String(existing[this.id]), record as T);
    return copyStoredRecord(selectFields(record as T, filters.$select, this.id));
  }

  async _patch(id: NullableId, data: Partial<D>, params: P = {} as P): Promise<T | T[]> {
    const updateOperators = this.option(params, 'updateOperators') ?? [];
    const patch = compileMemoryPatch(data as AnyRecord, this.id, updateOperators);
    // Read, compute and store with no await in between, so concurrent `$inc`s all count; every
    // record is computed before any is stored, so a 400 on one changes none.
    const { filters, query } = this.filterQuery(params);
    const updated = this.targets(id, query).map((record) => applyMemoryPatch(record, patch, this.id));
    assertUniqueFields(updated, this.store, this.id, this.options.unique ?? []);
    for (const record of updated) this.put(String(record[this.id]), record);
    const result = updated.map((record) => copyStoredRecord(selectFields(record, filters.$select, this.id)));
    return id === null ? result : result[0];
  }

  async _remove(id: NullableId, params: P = {} as P): Promise<T | T[]> {
    const { filters, query } = this.filterQuery(params);
    const targets = this.targets(id, query);
    for (const record of targets) this.drop(String(record[this.id]));
    const result = targets.map((record) => selectFields(record, filters.$select, this.id));
    return id === null ? result : result[0];
  }

  private put(key: string, record: T): void {
    this.store.set(key, record);
    this.byKey.positions.set(key);
    const id: unknown = record[this.id];
    if ((typeof id !== 'string' && typeof id !== 'number') || String(id) !== key) this.byKey.ok = false;
  }

  private drop(key: string): void {
    this.store.delete(key);
    this.byKey.positions.delete(key);
  }

  private removeExpired(): void {
    const expiries = this.options.expireAfter;
    if (expiries === undefined || expiries.length === 0) return;
    const now = Date.now();
    if (now - this.expirySweep.at < EXPIRY_SWEEP_MS) return;
    this.expirySweep.at = now;
    for (const [key, record] of this.store) if (hasExpired(record, expiries, now)) this.drop(key);
  }

  /**
   * The records whose id is one of `ids` (equal as a query compares: the number 5 is not the string '5'), in the
   * store's order.
   */
  private withIds(ids: readonly LookupId[]): T[] {
    const found = new Set<T>();
    for (const id of ids) {
      const record = this.store.get(String(id));
      if (record !== undefined && record[this.id] === id) found.add(record);
    }
    return this.byKey.positions.sort([...found], (record) => String(record[this.id]));
  }

  /**
   * Copies (of the selected fields) of the records from position `skip` up to `end` (exclusive), straight into the
   * page.
   */
  private copyPage(records: Iterator<T>, skip: number, end: number, select: string[] | undefined): T[] {
    const page: T[] = [];
    for (let position = 0; position < end; position++) {
      const next = records.next();
      if (next.done) break;
      if (position >= skip) page.push(copyStoredRecord(selectFields(next.value, select, this.id)));
    }
    return page;
  }

  /** The stored records a write addresses: one by id (404 if absent or not matching) or all matching. */
  private targets(id: NullableId, query: ServiceQuery): T[] {
    if (id === null) return this.matching(query);
    const record = this.store.get(String(id));
    if (!record || !matchesQuery(record, query)) throw new NotFound(`No record found for id '${echo(id)}'`);
    return [record];
  }

  private matching(query: ServiceQuery): T[] {
    if (isEmptyQuery(query)) return [...this.store.values()];
    const ids = idsNamedBy(query, this.id);
    if (ids !== undefined && this.byKey.ok && this.byKey.positions.size === this.store.size) return this.withIds(ids);
    return asBadRequest(() => {
      const matcher = new Query(query, QUERY_OPTIONS);
      const matches: T[] = [];
      for (const record of this.store.values()) if (matcher.test(record)) matches.push(record);
      return matches;
    });
  }
}

/** Without conditions every record matches, without compiling a mingo query. */
function matchesQuery(record: AnyRecord, query: ServiceQuery): boolean {
  return isEmptyQuery(query) || asBadRequest(() => new Query(query, QUERY_OPTIONS).test(record));
}

/**
 * mingo throws plain errors for values the query validation lets through but mingo cannot use
 * (an invalid `$regex`, an `$elemMatch` that is not an object): those are the caller's mistake, a 400.
 */
function asBadRequest<R>(run: () => R): R {
  try {
    return run();
  } catch (error) {
    throw new BadRequest(`Invalid query: ${echo((error as Error).message)}`);
  }
}

function sortRecords<T extends AnyRecord>(records: T[], sort: Record<string, 1 | -1>): void {
  const fields = Object.entries(sort);
  records.sort((a, b) => {
    for (const [field, direction] of fields) {
      const order = compareValues(valueAt(a, field), valueAt(b, field));
      if (order !== 0) return order * direction;
    }
    return 0;
  });
}

function valueAt(record: AnyRecord, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (typeof value === 'object' && value !== null ? (value as AnyRecord)[key] : undefined),
      record,
    );
}

/** Missing values sort first, then numbers, strings, dates, then anything else by its string form. */
function compareValues(a: unknown, b: unknown): number {
  const rank = (value: unknown) =>
    value === undefined || value === null
      ? 0
      : typeof value === 'number'
        ? 1
        : typeof value === 'string'
          ? 2
          : value instanceof Date
            ? 3
            : 4;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  if (ra === 1) return (a as number) - (b as number);
  if (ra === 3) return (a as Date).getTime() - (b as Date).getTime();
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}
