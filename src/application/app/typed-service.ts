import type { Id } from '../../domain/id';
import type { Paginated } from '../../domain/paginated';
import type { StandardMethod } from '../../ports/service.port';
import type { HookMap } from '../hooks/hook-types';

/**
 * What a client knows of one service, as `npm run generate:client-types` writes it from the
 * service's definition: the record as the policy may show it, the data of each write, the
 * queryable fields with the operators the service accepts, its methods and custom methods.
 */
export interface ServiceShape {
  /** A record as answers carry it (fields the policy may withhold are optional). */
  record: object;
  create: object;
  update: object;
  patch: object;
  /** Queryable fields and their types. */
  fields: object;
  /** Operators beyond the standard ones, with their operand types (e.g. `{ $regex: string }`). */
  operators: object;
  /** The names of the relations answers may carry (`$include`); `never` without any. */
  relations: string;
  /** The standard methods the service offers. */
  standard: StandardMethod;
  /** Custom methods: data and result of each. */
  methods: Record<string, { data: unknown; result: unknown }>;
  /** Whether `find` answers a page (the service paginates) or an array. */
  paginated: boolean;
}

/** A map of paths to shapes, checked: `ServiceMap<{ messages: {...} }>` (the generated `ServiceTypes`). */
export type ServiceMap<T extends { [K in keyof T]: ServiceShape }> = T;

/** The standard comparison operators of every field (docs/api-documentation.md, the query syntax). */
export interface ComparisonOperators<T> {
  $in?: T[];
  $nin?: T[];
  $lt?: T;
  $lte?: T;
  $gt?: T;
  $gte?: T;
  $ne?: T;
  $eq?: T;
}

/** Conditions on the fields: a value, or operators (the standard ones plus the service's own). */
export type FieldConditions<Fields, Operators = object> = {
  [K in keyof Fields]?: Fields[K] | (ComparisonOperators<Fields[K]> & Partial<Operators>);
};

/**
 * A query of a service: conditions, `$or` / `$and` of conditions, paging, sorting, selection, the
 * relations to include (`''`: none), and a write's idempotency key (sockets; REST may use the header).
 */
export type TypedQuery<Fields, Operators = object, Relations extends string = never> = FieldConditions<
  Fields,
  Operators
> & {
  $or?: FieldConditions<Fields, Operators>[];
  $and?: FieldConditions<Fields, Operators>[];
  $limit?: number;
  $skip?: number;
  $sort?: { [K in keyof Fields]?: 1 | -1 };
  $select?: (keyof Fields & string)[];
  $include?: '' | Relations | Relations[];
  $idempotencyKey?: string;
};

/**
 * The parameters a client passes to a call (no index signature: a misspelt key is an error).
 * `paginate` is not among them: it never travels, the server's setting decides the answer.
 */
export interface TypedParams<Q> {
  query?: Q;
  /** Headers to send with this call. */
  headers?: Record<string, string>;
  /** Values of `:name` placeholders in the service path. */
  route?: Record<string, string>;
  /** Options for the request library (REST) or the call (`timeout`, `signal`). */
  connection?: Record<string, unknown>;
}

type QueryOf<S extends ServiceShape> = TypedQuery<S['fields'], S['operators'], S['relations']>;
type ParamsOf<S extends ServiceShape> = TypedParams<QueryOf<S>>;
type Page<S extends ServiceShape> = S['paginated'] extends true ? Paginated<S['record']> : S['record'][];

/** The standard methods, typed by a shape (`null` ids address every matching record). */
interface StandardMethods<S extends ServiceShape> {
  find(params?: ParamsOf<S>): Promise<Page<S>>;
  get(id: Id, params?: ParamsOf<S>): Promise<S['record']>;
  create(data: S['create'], params?: ParamsOf<S>): Promise<S['record']>;
  create(data: S['create'][], params?: ParamsOf<S>): Promise<S['record'][]>;
  update(id: Id, data: S['update'], params?: ParamsOf<S>): Promise<S['record']>;
  patch(id: Id, data: S['patch'], params?: ParamsOf<S>): Promise<S['record']>;
  patch(id: null, data: S['patch'], params?: ParamsOf<S>): Promise<S['record'][]>;
  remove(id: Id, params?: ParamsOf<S>): Promise<S['record']>;
  remove(id: null, params?: ParamsOf<S>): Promise<S['record'][]>;
}

type CustomMethods<S extends ServiceShape> = {
  [M in keyof S['methods']]: (
    data: S['methods'][M]['data'],
    params?: ParamsOf<S>,
  ) => Promise<S['methods'][M]['result']>;
};

type RecordEvent = 'created' | 'updated' | 'patched' | 'removed';

/** Events of the service as the client hears them (over a socket). */
interface ServiceEvents<S extends ServiceShape> {
  on(event: RecordEvent, listener: (record: S['record']) => void): this;
  on(event: string, listener: (...args: any[]) => void): this;
  once(event: RecordEvent, listener: (record: S['record']) => void): this;
  once(event: string, listener: (...args: any[]) => void): this;
  off(event: string, listener?: (...args: any[]) => void): this;
  removeListener(event: string, listener?: (...args: any[]) => void): this;
  removeAllListeners(event?: string): this;
}

/** A service of a typed client app: only its own methods, each with its data, query and result types. */
export type TypedService<S extends ServiceShape> = Pick<StandardMethods<S>, S['standard']> &
  CustomMethods<S> &
  ServiceEvents<S> & { hooks(map: HookMap): TypedService<S> };

/** What `app.service(path)` returns for an entry of an app's service map: typed when the entry is a shape. */
export type ServiceOf<Entry> = Entry extends ServiceShape ? TypedService<Entry> : Entry;
