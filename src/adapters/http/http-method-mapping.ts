import { STANDARD_METHODS } from '../../ports/service.port';

const STANDARD: ReadonlySet<string> = new Set(STANDARD_METHODS);

/**
 * The service method an HTTP request calls (the seed's Endpoints table); undefined for verbs
 * that map to nothing (OPTIONS, ...). Only POST reads `X-Service-Method`, and its id is ignored.
 */
export function serviceMethodFor(httpMethod: string, hasId: boolean, serviceMethodHeader?: string): string | undefined {
  switch (httpMethod) {
    case 'GET':
    case 'HEAD':
      return hasId ? 'get' : 'find';
    case 'POST':
      return serviceMethodHeader === undefined || serviceMethodHeader === '' ? 'create' : serviceMethodHeader;
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'remove';
    default:
      return undefined;
  }
}

/** A transport may call `method` when it is listed; a custom-method header may not name a standard one. */
export function isCallable(method: string, methods: readonly string[], viaHeader: boolean): boolean {
  if (viaHeader && STANDARD.has(method)) return false;
  return methods.includes(method);
}

/** The `Allow` header for a collection URL (`hasId` false) or an item URL. */
export function allowedHttpMethods(methods: readonly string[], hasId: boolean): string {
  const allowed: string[] = [];
  const has = (name: string): boolean => methods.includes(name);
  if (has(hasId ? 'get' : 'find')) allowed.push('GET', 'HEAD');
  if (has('create') || methods.some((name) => !STANDARD.has(name))) allowed.push('POST');
  if (has('update')) allowed.push('PUT');
  if (has('patch')) allowed.push('PATCH');
  if (has('remove')) allowed.push('DELETE');
  return allowed.join(', ');
}
