import type { HttpContext } from '../../application/hooks/hook-context';

/**
 * The status of a successful call, in Feathers 5 order: a status set by a hook, 303 for a
 * location, 204 for no result, 201 for `create`, else 200. Unlike Feathers, only `null` and
 * `undefined` are "no result": `0`, `false` and `''` are sent as JSON with 200/201.
 */
export function responseStatus(method: string, http: HttpContext | undefined, body: unknown): number {
  if (http?.status !== undefined) return http.status;
  if (http?.location !== undefined) return 303;
  if (body === undefined || body === null) return 204;
  return method === 'create' ? 201 : 200;
}

/** Statuses that never carry a body. */
export function isBodyless(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200);
}
