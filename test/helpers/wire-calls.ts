import { encodeQuery } from '../../src/adapters/rest-client/encode-query';
import { argumentNames } from '../../src/application/app/service-call';

/** One call as a service sees it, whatever carries it. */
export interface WireCall {
  readonly method: string;
  readonly path: string;
  readonly id?: string | null;
  readonly data?: unknown;
  readonly query?: Record<string, unknown>;
}

const VERBS: Record<string, string> = {
  find: 'GET',
  get: 'GET',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  remove: 'DELETE',
};

/**
 * The request the Feathers REST client sends for a call: verb, path with the query, and
 * `X-Service-Method` for custom methods.
 */
export function restRequestOf(call: WireCall): { verb: string; url: string; headers: Record<string, string> } {
  const item = call.id === undefined ? '' : `/${encodeURIComponent(String(call.id))}`;
  const verb = VERBS[call.method];
  return {
    verb: verb ?? 'POST',
    url: `/${call.path}${item}${encodeQuery(call.query)}`,
    headers: verb ? {} : { 'x-service-method': call.method },
  };
}

/**
 * The arguments after the path of the frame the Feathers socket client sends: the method's
 * arguments, the query in place of the params.
 */
export function socketArgumentsOf(call: WireCall): unknown[] {
  return argumentNames(call.method).map((name) =>
    name === 'id' ? call.id : name === 'data' ? call.data : (call.query ?? {}),
  );
}
