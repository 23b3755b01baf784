/**
 * The browser-safe entry point (`<package>/client`): the application core, the REST and socket
 * clients, the authentication client, the errors and the types. Nothing here imports Node builtins.
 */
export { Application, createApp } from './application/app/application';
export type { HookContext } from './application/hooks/hook-context';
export type { AroundHook, HookMap, RegularHook } from './application/hooks/hook-types';
export * from './domain/errors';
export type { Id, NullableId } from './domain/id';
export type { Paginated } from './domain/paginated';
export type { Query } from './domain/query';
export type { Params } from './ports/service-params';
export type { ServiceMethods, ServicePort, CustomMethod } from './ports/service.port';
export type { ServiceOptions, ServiceRegistrationOptions } from './ports/service-options';
export * from './adapters/rest-client';
export * from './adapters/socketio-client';
export {
  AuthenticationClient,
  authenticationClient,
  type AuthenticationClientOptions,
  type TokenStorage,
} from './application/authentication/authentication-client';
export type { CreateAppOptions } from './application/app/application';
export type {
  ComparisonOperators,
  FieldConditions,
  ServiceMap,
  ServiceOf,
  ServiceShape,
  TypedParams,
  TypedQuery,
  TypedService,
} from './application/app/typed-service';
export * from './application/services/service-types.generated';
