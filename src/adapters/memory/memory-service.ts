import { Query } from 'mingo';
import { AdapterBase } from '../../application/adapter/adapter-base';
import { selectFields } from '../../application/adapter/select-fields';
import { isPaginating } from '../../application/query/pagination';
import { Conflict, NotFound } from '../../domain/errors';
import type { Id, NullableId } from '../../domain/id';
import type { Paginated } from '../../domain/paginated';
import type { Query as ServiceQuery } from '../../domain/query';
import type { ServiceOptions } from '../../ports/service-options';
import type { Params } from '../../ports/service-params';
import { cloneRecord } from './clone-record';

export interface MemoryServiceOptions<T> extends ServiceOptions {
  /** Records to start with, keyed by id. */
  store?: Record<string, T>;
  /** The first generated id; ids count up from it (deterministic). */
  startId?: number;
}

type AnyRecord = Record<string, any>;

/**
 * An in-memory store adapter with MongoDB query semantics (mingo). The reference adapter for the
 * contract suite, a test double for the port, and the `STORE=memory` backend.
 */
export class MemoryService<T extends AnyRecord = AnyRecord, D = Partial<T>, P extends Params = Params> extends AdapterBase<T, D, P, MemoryServiceOptions<T>> {
  readonly store = new Map<string, T>();
  /** Held in an object: the app's wrapper (`Object.create(service)`) must not shadow a counter with its own copy. */
  private readonly ids: { next: number };

  constructor(options: MemoryServiceOptions<T> = {}) {
    super(options, 'id');
    this.ids = { next: options.startId ?? 0 };
    for (const [key, record] of Object.entries(options.store ?? {})) this.store.set(key, cloneRecord(record));
  }

  async _find(params: P = {} as P): Promise<T[] | Paginated<T>> {
    const { paginate } = this.getOptions(params);
    const { filters, query } = this.filterQuery(params);
    const matches = this.matching(query);
    const total = matches.length;
    if (filters.$sort && Object.keys(filters.$sort).length > 0) sortRecords(matches, filters.$sort);
    const skip = filters.$skip ?? 0;
    const end = filters.$limit === undefined ? undefined : skip + filters.$limit;
    const data = matches.slice(skip, end).map((record) => selectFields(cloneRecord(record), filters.$select, this.id));
    if (!isPaginating(paginate)) return data;
    return { total, limit: filters.$limit ?? total, skip, data };
  }

  async _get(id: Id, params: P = {} as P): Promise<T> {
    const { filters, query } = this.filterQuery(params);
    const record = this.store.get(String(id));
    if (!record || !new Query(query).test(record)) throw new NotFound(`No record found for id '${id}'`);
    return selectFields(cloneRecord(record), filters.$select, this.id);
  }

  async _create(data: D | D[], params: P = {} as P): Promise<T | T[]> {
    const { filters } = this.filterQuery(params);
    const records = (Array.isArray(data) ? data : [data]).map((item) => cloneRecord(item as unknown as AnyRecord) as T);
    // Check every id first so a batch with a duplicate stores nothing (like a unique index would refuse it).
    const keys = new Set<string>();
    for (const record of records) {
      if (record[this.id] === undefined) continue;
      const key = String(record[this.id]);
      if (this.store.has(key) || keys.has(key)) throw new Conflict(`A record with ${this.id} '${key}' already exists`, { fields: [this.id] });
      keys.add(key);
    }
    const created = records.map((record) => {
      (record as AnyRecord)[this.id] ??= this.ids.next++;
      this.store.set(String(record[this.id]), record);
      return selectFields(cloneRecord(record), filters.$select, this.id);
    });
    return Array.isArray(data) ? created : created[0];
  }

  async _update(id: Id, data: D, params: P = {} as P): Promise<T> {
    const existing = await this._get(id, { ...params, query: withoutFilters(params.query) });
    const record = { ...cloneRecord(data as unknown as AnyRecord), [this.id]: existing[this.id] } as T;
    this.store.set(String(existing[this.id]), record);
    return this._get(existing[this.id], params);
  }

  async _patch(id: NullableId, data: Partial<D>, params: P = {} as P): Promise<T | T[]> {
    const targets = await this.targets(id, params);
    const changes = cloneRecord(data as AnyRecord);
    const updated = targets.map((record) => {
      const next = { ...record, ...changes, [this.id]: record[this.id] } as T;
      this.store.set(String(record[this.id]), next);
      return next;
    });
    const { filters } = this.filterQuery({ ...params, paginate: false });
    const result = updated.map((record) => selectFields(cloneRecord(record), filters.$select, this.id));
    return id === null ? result : result[0];
  }

  async _remove(id: NullableId, params: P = {} as P): Promise<T | T[]> {
    const targets = await this.targets(id, params);
    for (const record of targets) this.store.delete(String(record[this.id]));
    const { filters } = this.filterQuery({ ...params, paginate: false });
    const result = targets.map((record) => selectFields(record, filters.$select, this.id));
    return id === null ? result : result[0];
  }

  /** The stored records a patch/remove addresses: one by id (404 if absent or not matching) or all matching. */
  private async targets(id: NullableId, params: P): Promise<T[]> {
    const { query } = this.filterQuery({ ...params, paginate: false });
    if (id === null) return this.matching(query);
    const record = this.store.get(String(id));
    if (!record || !new Query(query).test(record)) throw new NotFound(`No record found for id '${id}'`);
    return [record];
  }

  private matching(query: ServiceQuery): T[] {
    const all = [...this.store.values()];
    if (Object.keys(query).length === 0) return all;
    const matcher = new Query(query);
    return all.filter((record) => matcher.test(record));
  }
}

function withoutFilters(query: ServiceQuery | undefined): ServiceQuery {
  const { $select: _s, $sort: _o, $limit: _l, $skip: _k, ...conditions } = query ?? {};
  return conditions;
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
  return path.split('.').reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as AnyRecord)[key] : undefined), record);
}

/** Missing values sort first, then numbers, strings, dates, then anything else by its string form. */
function compareValues(a: unknown, b: unknown): number {
  const rank = (value: unknown) => (value === undefined || value === null ? 0 : typeof value === 'number' ? 1 : typeof value === 'string' ? 2 : value instanceof Date ? 3 : 4);
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
