import type { Id, NullableId } from '../../domain/id';
import type { Params } from '../../ports/service-params';

/**
 * One call of a service method, by name rather than by position: what every transport builds from
 * its input and what the hook context carries. `params` is the call's own object, built once.
 */
export interface ServiceCall {
  id?: NullableId | Id;
  data?: unknown;
  params: Params;
}

export type ArgumentName = 'id' | 'data' | 'params';

const PARAMS: readonly ArgumentName[] = Object.freeze(['params']);
const ID_PARAMS: readonly ArgumentName[] = Object.freeze(['id', 'params']);
const ID_DATA_PARAMS: readonly ArgumentName[] = Object.freeze(['id', 'data', 'params']);
const DATA_PARAMS: readonly ArgumentName[] = Object.freeze(['data', 'params']);

/**
 * The argument table: the positional layout of each standard method (the service port, the
 * Feathers socket frames); custom methods are `(data, params)` like `create`.
 */
export function argumentNames(method: string): readonly ArgumentName[] {
  switch (method) {
    case 'find':
      return PARAMS;
    case 'get':
    case 'remove':
      return ID_PARAMS;
    case 'update':
    case 'patch':
      return ID_DATA_PARAMS;
    default:
      return DATA_PARAMS;
  }
}

/** Whether the method's call carries data (a request body, a socket frame's data argument). */
export function takesData(method: string): boolean {
  return argumentNames(method).includes('data');
}

/** Whether the method's call addresses a record by id (`null` for many, where allowed). */
export function takesId(method: string): boolean {
  return argumentNames(method)[0] === 'id';
}

/** A positional argument list (a direct call on a service object) as a call; missing params become `{}`. */
export function callFromArguments(method: string, args: readonly unknown[]): ServiceCall {
  const names = argumentNames(method);
  const call: ServiceCall = { params: (args[names.length - 1] as Params | undefined) ?? {} };
  if (names === ID_PARAMS) call.id = args[0] as NullableId;
  else if (names === ID_DATA_PARAMS) {
    call.id = args[0] as NullableId;
    call.data = args[1];
  } else if (names === DATA_PARAMS) call.data = args[0];
  return call;
}

/** The positional arguments of a call, in the order the service method takes them. */
export function argumentsOfCall(method: string, call: ServiceCall): unknown[] {
  const names = argumentNames(method);
  if (names === PARAMS) return [call.params];
  if (names === ID_PARAMS) return [call.id, call.params];
  if (names === ID_DATA_PARAMS) return [call.id, call.data, call.params];
  return [call.data, call.params];
}
