import type { Id, NullableId } from '../domain/id';
import type { Paginated } from '../domain/paginated';
import type { Params } from './service-params';

/** The six standard methods, in the order transports document them. */
export const STANDARD_METHODS = ['find', 'get', 'create', 'update', 'patch', 'remove'] as const;
export type StandardMethod = (typeof STANDARD_METHODS)[number];

/**
 * The application's port: every adapter (database, REST client, memory) implements it.
 * Methods are optional so a service may offer a subset; custom methods are `(data, params)`.
 */
export interface ServicePort<T = any, D = Partial<T>, P extends Params = Params> {
  find?(params?: P): Promise<T[] | Paginated<T>>;
  get?(id: Id, params?: P): Promise<T>;
  create?(data: D | D[], params?: P): Promise<T | T[]>;
  update?(id: NullableId, data: D, params?: P): Promise<T | T[]>;
  patch?(id: NullableId, data: Partial<D>, params?: P): Promise<T | T[]>;
  remove?(id: NullableId, params?: P): Promise<T | T[]>;
  setup?(app: unknown, path: string): Promise<void> | void;
  teardown?(app: unknown, path: string): Promise<void> | void;
}

/** A custom method: takes the request data and params, returns anything serializable. */
export type CustomMethod<D = any, R = any, P extends Params = Params> = (data: D, params?: P) => Promise<R>;

/** The full port, every standard method present (what adapters implement). */
export type ServiceMethods<T = any, D = Partial<T>, P extends Params = Params> = Required<
  Pick<ServicePort<T, D, P>, StandardMethod>
>;
