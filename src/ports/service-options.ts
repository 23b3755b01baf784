import type { PaginationOptions } from './service-params';

/** A filter value: `true` keeps the value, a function converts it (returning undefined drops it). */
export type FilterSetting = true | ((value: unknown) => unknown);

/** Options shared by every adapter built on the adapter base. */
export interface ServiceOptions {
  /** The id field. Default 'id' (memory) or '_id' (database). */
  id?: string;
  /** Pagination; `false` (the default) returns plain arrays. */
  paginate?: PaginationOptions | false;
  /** Multi-record create/patch/remove: `true` for all, a list of methods, or `false` (the default). */
  multi?: boolean | string[];
  /** Extra top-level query filters beyond `$limit $skip $sort $select $or $and`. */
  filters?: Record<string, FilterSetting>;
  /** Extra property operators beyond `$in $nin $lt $lte $gt $gte $ne $eq` (e.g. '$regex', '$options'). */
  operators?: string[];
  /** Custom event names the service emits itself. */
  events?: string[];
  /** Makes the id of a record created without one. Default: the adapter's own (counter, ObjectId). */
  generateId?: () => string | number;
  /**
   * Top-level fields the server owns (owner, counters, ...): `update` replaces every other field
   * and keeps the stored values of these, in the same single-record write, so a concurrent
   * patch of a kept field is never undone. A kept field the record lacks takes the data's value.
   */
  keepOnReplace?: string[];
}

/** Options of `app.use(path, service, options)`. */
export interface ServiceRegistrationOptions {
  /** The methods transports may call. Default: the standard methods the service has. Custom methods must be listed. */
  methods?: string[];
  /** Custom event names. */
  events?: string[];
  /**
   * Whether its events reach real-time connections. Default: only when some method is exposed to
   * transports (`methods` not empty), so an internal-only service publishes nothing by accident.
   */
  publishEvents?: boolean;
  /**
   * `false`: calls through this registration emit no event here (a binding to another server whose
   * events this server hears: that event is the one delivered). Default true.
   */
  localEvents?: boolean;
  /**
   * What each real-time connection may see of the service's events (its policy): without it,
   * every connection a publisher picks gets the same payload.
   */
  visibility?: RecordVisibility;
}

/** One real-time connection's view of a record: its payload, and a key shared by every identical view. */
export interface RecordView {
  readonly key: string;
  readonly view: Record<string, unknown>;
}

/**
 * Who sees which part of a service's records, decided by the service's policy: `published` is the
 * record as it may travel between instances (fields nobody reads removed), `viewFor` one user's
 * view of it (undefined when they may not read it). Connections with the same view share a key,
 * so a transport encodes each distinct view once.
 */
export interface RecordVisibility {
  published(record: unknown): unknown;
  viewFor(user: Record<string, any> | undefined, record: unknown): RecordView | undefined;
}
