import { BadRequest, MethodNotAllowed } from '../../domain/errors';
import type { Id, NullableId } from '../../domain/id';
import type { Paginated } from '../../domain/paginated';
import { copyWith } from '../../domain/plain-record';
import { isEmptyQuery, type Query } from '../../domain/query';
import type { ServiceOptions } from '../../ports/service-options';
import type { Params } from '../../ports/service-params';
import { filterQuery, type FilteredQuery, type FilterQueryOptions } from '../query/filter-query';
import { allowsMulti, optionForCall, optionsForCall, type ResolvedServiceOptions } from './adapter-options';
import { assertKeepOnReplace } from './keep-on-replace';

/**
 * The shared half of every store adapter: public methods sanitize the query, check `multi` and
 * the id, then call the hook-less `_find/_get/_create/_update/_patch/_remove` the store
 * implements. Options are read on every call, so changing `service.options` takes effect.
 */
export abstract class AdapterBase<
  T = any,
  D = Partial<T>,
  P extends Params = Params,
  O extends ServiceOptions = ServiceOptions,
> {
  options: ResolvedServiceOptions<O>;
  /**
   * The params the latest public call handed its store, with what it validated: one slot rather
   * than a table keyed by params (a WeakMap kept every call's params alive through young-generation
   * collections, promoting them). A store reads it synchronously, before its first await.
   */
  private handedOver?: ValidatedQuery;

  constructor(options: O, defaultId = 'id') {
    assertKeepOnReplace(options?.keepOnReplace);
    this.options = {
      id: defaultId,
      paginate: false,
      multi: false,
      filters: {},
      operators: [],
      events: [],
      ...options,
    } as ResolvedServiceOptions<O>;
  }

  get id(): string {
    return this.options.id;
  }

  get events(): string[] {
    return this.options.events;
  }

  getOptions(params: P = {} as P): ResolvedServiceOptions<O> {
    return optionsForCall(this.options, params);
  }

  allowsMulti(method: string, params: P = {} as P): boolean {
    return allowsMulti(method, this.option(params, 'multi'));
  }

  /**
   * Validates `params.query` and splits it; `$limit` resolved against the call's pagination. The
   * params a public method hands its store carry what it validated, so this is done once per call.
   */
  filterQuery(params: P = {} as P): FilteredQuery {
    const handed = this.handedOver;
    if (handed !== undefined && handed.params === params && handed.query === params.query)
      return { filters: { ...handed.filtered.filters }, query: { ...handed.filtered.query } };
    return filterQuery(params.query, this.filterOptions(params));
  }

  /** The validated query as one object (filters and conditions). */
  sanitizeQuery(params: P = {} as P): Query {
    return joinedQuery(filterQuery(params.query, this.filterOptions(params)));
  }

  /**
   * The params a public method passes to its store: `query` validated (without `$limit` for a write
   * to many, which addresses every match), and what was validated handed over to `filterQuery` for
   * that very object: a copy of the params, a changed query or a later call's params are validated again.
   */
  private validatedParams(params: P, forWrite = false): P {
    const options = this.filterOptions(params);
    if (forWrite) options.paginate = false;
    const filtered = filterQuery(params.query, options);
    if (forWrite) delete filtered.filters.$limit;
    const query = joinedQuery(filtered);
    // Every transport's params hold `query`: a copy that only replaces it keeps their hidden class and
    // is quicker than copyWith, which params without one (many internal calls) need.
    const validated = (Object.hasOwn(params, 'query') ? { ...params, query } : copyWith(params, { query })) as P;
    this.handedOver = { params: validated, query, filtered };
    return validated;
  }

  /** The three options `getOptions(params)` would give, without copying every option per call. */
  private filterOptions(params: P): FilterQueryOptions {
    return {
      filters: this.option(params, 'filters'),
      operators: this.option(params, 'operators'),
      paginate: this.option(params, 'paginate'),
    };
  }

  /** One option as `getOptions(params)` gives it, without copying every option per call. */
  protected option<K extends keyof ResolvedServiceOptions<O>>(params: P, name: K): ResolvedServiceOptions<O>[K] {
    return optionForCall(this.options, params, name);
  }

  // The public methods are not async functions: each would add a promise and two ticks per call
  // around the store's own promise. `settle` still turns a synchronous throw into a rejection.
  find(params: P = {} as P): Promise<T[] | Paginated<T>> {
    return settle(() => this._find(this.validatedParams(params)));
  }

  get(id: Id, params: P = {} as P): Promise<T> {
    return settle(() => {
      this.assertId(id);
      return this._get(id, this.validatedParams(params));
    });
  }

  create(data: D | D[], params: P = {} as P): Promise<T | T[]> {
    return settle(() => {
      if (Array.isArray(data) && !this.allowsMulti('create', params))
        throw new MethodNotAllowed('Can not create multiple entries');
      if (!isCreatable(data)) throw new BadRequest('The data must be an object or an array of objects');
      // Validate the query (for `$select`) before anything is stored.
      return this._create(data, this.validatedParams(params));
    });
  }

  update(id: NullableId, data: D, params: P = {} as P): Promise<T> {
    return settle(() => {
      if (id === null || Array.isArray(data))
        throw new BadRequest("You can not replace multiple instances. Did you mean 'patch'?");
      this.assertId(id);
      assertRecord(data);
      return this._update(id, data, this.validatedParams(params));
    });
  }

  patch(id: NullableId, data: Partial<D>, params: P = {} as P): Promise<T | T[]> {
    return settle(() => {
      if (id === null && !this.allowsMulti('patch', params))
        throw new MethodNotAllowed('Can not patch multiple entries');
      if (id !== null) this.assertId(id);
      assertRecord(data);
      return this._patch(id, data, this.validatedParams(params, true));
    });
  }

  remove(id: NullableId, params: P = {} as P): Promise<T | T[]> {
    return settle(() => {
      if (id === null && !this.allowsMulti('remove', params))
        throw new MethodNotAllowed('Can not remove multiple entries');
      if (id !== null) this.assertId(id);
      return this._remove(id, this.validatedParams(params, true));
    });
  }

  abstract _find(params?: P): Promise<T[] | Paginated<T>>;
  abstract _get(id: Id, params?: P): Promise<T>;
  abstract _create(data: D | D[], params?: P): Promise<T | T[]>;
  abstract _update(id: Id, data: D, params?: P): Promise<T>;
  abstract _patch(id: NullableId, data: Partial<D>, params?: P): Promise<T | T[]>;
  abstract _remove(id: NullableId, params?: P): Promise<T | T[]>;

  /** Ids are strings or numbers; objects and arrays (operator injection) are refused. */
  protected assertId(id: unknown): asserts id is Id {
    if ((typeof id !== 'string' && typeof id !== 'number') || (typeof id === 'number' && !Number.isFinite(id))) {
      throw new BadRequest('The id must be a string or a number');
    }
  }
}

/** What a public method validated: the params and query it passed on, and the query's parts. */
interface ValidatedQuery {
  readonly params: object;
  readonly query: Query;
  readonly filtered: FilteredQuery;
}

/** `call`'s promise, or its synchronous throw as a rejection; a non-promise result is wrapped. */
function settle<R>(call: () => R | Promise<R>): Promise<R> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error);
  }
}

function isCreatable(data: unknown): boolean {
  const isRecord = (item: unknown) => typeof item === 'object' && item !== null && !Array.isArray(item);
  return Array.isArray(data) ? data.every(isRecord) : isRecord(data);
}

function assertRecord(data: unknown): void {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new BadRequest('The data must be an object');
}

/** Filters and conditions as one query: a plain copy of the part that is alone, the two joined otherwise. */
function joinedQuery({ filters, query }: FilteredQuery): Query {
  if (isEmptyQuery(query)) return { ...filters };
  if (isEmptyQuery(filters)) return { ...query };
  return copyWith(filters, query);
}
