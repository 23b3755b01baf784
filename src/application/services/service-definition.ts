import type { ClassConstructor } from 'class-transformer';
import type { PasswordHasherPort } from '../../ports/password-hasher.port';
import type { Params } from '../../ports/service-params';
import type { ServiceMethods } from '../../ports/service.port';
import type { PaginationOptions } from '../../ports/service-params';
import type { FilterSetting } from '../../ports/service-options';
import type { Application } from '../app/application';
import type { Publisher } from '../channels/publishers';
import type { HookMap } from '../hooks/hook-types';
import type { ComputedFields } from '../policy/policy-views';
import type { ServicePolicy } from '../policy/service-policy';
import type { Relations } from '../relations/relation';
import type { IdempotencyRecords } from '../idempotency/idempotency-records';

/**
 * How a service's records are identified. `objectid`: 24-hex ObjectIds (stored as ObjectIds in
 * MongoDB, as their hex strings in memory); `uuid`: random UUID strings on both stores.
 */
export type IdType = 'objectid' | 'uuid';

/** One index of the service's collection; `unique` and TTL indexes hold on the memory store too. */
export interface IndexDefinition {
  /** Field -> 1 (ascending) or -1 (descending), in index order. */
  fields: Record<string, 1 | -1>;
  unique?: boolean;
  /**
   * A TTL index (one field): records go once this many seconds have passed since the date in it (within a minute or so,
   * as in MongoDB).
   */
  expireAfterSeconds?: number;
}

/** What a definition's hooks may use: shared collaborators. */
export interface HookDependencies {
  passwordHasher: PasswordHasherPort;
}

/** What registering a definition needs: the hooks' collaborators and where the service is stored. */
export interface ServiceDependencies extends HookDependencies {
  /**
   * False when the service is bound to another server: that server applies its own stamps,
   * owner rules and hashing, so the definition's `storedHere` hooks do not run here.
   */
  storesLocally: boolean;
  /** Where the idempotency keys of writes are kept; without it, keys are not honoured. */
  idempotency?: IdempotencyRecords;
  /**
   * True when the service is bound to another server whose events this server hears (with its
   * credential): then calls through the binding emit no event here, since the storing server's
   * event of that call arrives like every other and is heard once.
   */
  eventsFromStoringServer?: boolean;
}

/** A definition's own hooks, by where they run. */
export interface ServiceHooks {
  /** Hooks of every binding (authentication, checks of what callers send): they run before `storedHere`. */
  always?(dependencies: HookDependencies): HookMap;
  /**
   * Hooks of the server that stores the records (stamps, owner rules, hashing): skipped where the
   * service is bound to another server, which runs its own.
   */
  storedHere?(dependencies: HookDependencies): HookMap;
}

/** A custom method implemented over the service's local store (not used for a remote binding). */
export type CustomMethodImplementation = (store: ServiceMethods, data: any, params: Params) => Promise<unknown>;

/** The DTO classes (class-validator) of a service's data and queries. */
export interface ServiceDtos {
  /** Data of `create` (and of `update` unless `update` is given). */
  create: ClassConstructor<object>;
  /** Data of `update`; default `create`. */
  update?: ClassConstructor<object>;
  /** Data of `patch`: every field optional. */
  patch: ClassConstructor<object>;
  /** Queryable fields: URL strings become their types; fields not declared are a 400. */
  query: ClassConstructor<object>;
  /** Data of each custom method, by method name. */
  methods?: Record<string, ClassConstructor<object>>;
  /**
   * What each custom method answers, by method name: a DTO, or `'record'` (a record of this
   * service, as the policy shows it). Clients' generated types use it; a method not named here
   * answers `unknown` to them.
   */
  results?: Record<string, ClassConstructor<object> | 'record'>;
  /**
   * Every field an answer may carry, stored or computed (the policy decides which a caller sees):
   * the record schema of the OpenAPI document, which then admits no other field. Default: the
   * query and create DTOs' fields, with other fields allowed.
   */
  record?: ClassConstructor<object>;
}

/**
 * Everything about one service, declared once in `src/application/services/<name>/`: the
 * composition binds a store to it, transports route to it, the OpenAPI document describes it.
 */
export interface ServiceDefinition {
  /** The path the service is registered at (and its name in `<NAME>_REMOTE_URL`). */
  path: string;
  /** One line describing the service (OpenAPI, docs page). */
  description?: string;
  /** Methods transports may call: standard ones and custom ones (which need `customMethods`). */
  methods: readonly string[];
  customMethods?: Record<string, CustomMethodImplementation>;
  dto: ServiceDtos;
  /** Id field and type. Default `{ field: '_id', type: 'objectid' }`. */
  id?: { field?: string; type?: IdType };
  paginate?: PaginationOptions | false;
  multi?: boolean | string[];
  indexes?: readonly IndexDefinition[];
  /** Update operators patch data may carry (each validated by the patch DTO first), e.g. `['$inc']`. */
  updateOperators?: readonly string[];
  /** Property operators beyond the standard ones, e.g. `['$regex']` (each store validates them). */
  operators?: readonly string[];
  /** Extra top-level query filters. */
  filters?: Record<string, FilterSetting>;
  /** Fields that never leave the server (answers, events, logs). */
  hiddenFields?: readonly string[];
  /**
   * Fields the server owns (owner, creation time, counters, ...): a replacement (`update`) keeps
   * their stored values, so `PUT` replaces only what clients may set. Top-level names; the store
   * keeps them in the replacing write itself (its `keepOnReplace` option).
   */
  serverOwnedFields?: readonly string[];
  /**
   * The field naming a record's owner, which the service's hooks set from the authenticated user.
   * It is in no DTO, so clients are not told of it: a client's value in create or update data is
   * dropped, an internal caller's (no `provider`) is kept, so server code may write for a user.
   */
  ownerField?: string;
  /**
   * Who may call which method on which records and see or write which fields (docs/policies-and-relations.md,
   * "Who may see and do what"). Compiled per caller into the store query, the answer's fields, the fields a
   * write may set and each real-time connection's view of the events. Enforced where the records
   * are stored; calls without a `provider` (the server's own) are not restricted.
   */
  policy?: ServicePolicy;
  /** Fields computed per caller for every record they may read (e.g. `liked`: did I like it). */
  computedFields?: ComputedFields;
  /**
   * Records of other services that answers and events carry, by name: `user: { service: 'users',
   * field: 'userId', select: ['_id', 'name'] }` is the `users` record whose `_id` is `userId`.
   * Resolved in one call per page through the target service, as the caller; what the caller sees
   * of it is the target's policy. Clients choose with `$include` (absent: all). Needs a policy.
   */
  relations?: Relations;
  /**
   * Who may call: the `authenticate` stage checks the credential of every call of the service's
   * methods but `publicMethods` (`strategies` default `['jwt']`); an external call without one is a
   * 401, an internal call passes. Absent: nobody is signed in by the service itself.
   */
  authentication?: { strategies?: readonly string[]; publicMethods?: readonly string[] };
  /** The service's own hooks, after the validation the definition's DTOs imply (the `hooks` and `store` stages). */
  hooks?: ServiceHooks;
  /** Custom event names the service emits. */
  events?: readonly string[];
  /**
   * Who hears the service's events over real-time connections: given the app (with channels),
   * the publisher that picks the channels of each event, e.g. `(app) => () => app.channel('authenticated')`.
   * Without it, no connection hears them.
   */
  publish?(app: Application): Publisher;
}

/** The id settings of a definition with their defaults. */
export function idOf(definition: ServiceDefinition): { field: string; type: IdType } {
  return { field: definition.id?.field ?? '_id', type: definition.id?.type ?? 'objectid' };
}

/** A definition, checked by the type system (and kept as literal as written). */
export function defineService<D extends ServiceDefinition>(definition: D): D {
  return definition;
}
