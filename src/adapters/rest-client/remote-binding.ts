import { argumentNames } from '../../application/app/service-call';
import { userIdOf } from '../../application/authentication/owner.hooks';
import { ON_BEHALF_OF_HEADER, SERVICE_CREDENTIAL_REFUSALS } from '../../application/authentication/authenticate.hook';
import { IDEMPOTENCY_HEADER } from '../../application/idempotency/idempotency-key';
import type { ServiceDefinition } from '../../application/services/service-definition';
import { BadGateway, Forbidden, NotAuthenticated, ServiceError, Timeout, Unavailable } from '../../domain/errors';
import { copyWith } from '../../domain/plain-record';
import type { LoggerPort } from '../../ports/logger.port';
import type { MetricsPort } from '../../ports/metrics.port';
import { TRACE_PARENT, type TraceParent, type TracerPort } from '../../ports/tracer.port';
import type { Params } from '../../ports/service-params';
import type { ServiceMethods } from '../../ports/service.port';
import type { FetchFunction } from './connections/fetch.connection';
import { rest } from './rest-client';

type RemoteService = Record<string, any> & { methods(...names: string[]): unknown };

/** Where a service bound to another server lives (`<NAME>_REMOTE_URL`) and how this server signs in there. */
export interface RemoteSettings {
  readonly url: string;
  /** This server's service credential on the other server (`<NAME>_REMOTE_TOKEN`). */
  readonly token?: string;
  /** Whether `/ready` waits for this remote. */
  readonly readiness: boolean;
}

/**
 * What a binding's calls travel through: a fetch and a way to release its connections. The
 * composition passes a bounded keep-alive pool (Node only, so it is made there, not here).
 */
export interface RemoteConnection {
  readonly fetch: FetchFunction;
  /** Closes the idle connections; calls still running finish first. */
  close(): Promise<void>;
}

/**
 * What watches a binding's calls: the client span of each (the trace goes on to the other server) and the count of
 * failures.
 */
export interface RemoteObservers {
  readonly tracer?: TracerPort;
  readonly metrics?: MetricsPort;
}

/** A service bound to another server: the store its calls go to, and its health. */
export interface RemoteBinding {
  readonly path: string;
  /** Whether `/ready` waits for this remote. */
  readonly readiness: boolean;
  readonly store: ServiceMethods;
  /** Resolves when the remote answers with this server's credential accepted; rejects with a 503 naming the service. */
  check(): Promise<void>;
  /** Closes the binding's idle connections to the remote (calls still running finish first). */
  close(): Promise<void>;
}

/**
 * What a call forwarded to another server carries: the query, the route values, an
 * Idempotency-Key and, for a signed-in user, this server's service credential with the user's id
 * (`X-On-Behalf-Of`), so the other server applies that user's rules. A call without a user (anonymous, or internal)
 * goes without the credential: the other server answers it as it answers anyone anonymous, never as a
 * call from this server with more rights. The incoming request's own headers and token stay here.
 */
export function remoteParams(params: Params | undefined, credential: string | undefined): Params {
  const forwarded: Params = {};
  // Not sent as a param: the client span made of it is what the request's traceparent names.
  if (params?.[TRACE_PARENT] !== undefined) forwarded[TRACE_PARENT] = params[TRACE_PARENT];
  if (params?.query !== undefined) forwarded.query = params.query;
  if (params?.route !== undefined) forwarded.route = params.route;
  if (params?.user && credential)
    forwarded.headers = { Authorization: `Bearer ${credential}`, [ON_BEHALF_OF_HEADER]: userIdOf(params.user) };
  // A write's Idempotency-Key goes with it: the storing server keeps the keys.
  const key = params?.headers?.[IDEMPOTENCY_HEADER];
  if (typeof key === 'string') forwarded.headers = copyWith(forwarded.headers ?? {}, { [IDEMPOTENCY_HEADER]: key });
  return forwarded;
}

/** The 403s of the storing server that say this server's credential does not fit the binding (not the user's fault). */
function refusesTheCredential(error: unknown): boolean {
  const reason = (error as ServiceError).data as { reason?: unknown } | undefined;
  return (
    error instanceof Forbidden &&
    (reason?.reason === SERVICE_CREDENTIAL_REFUSALS.outsideScope ||
      reason?.reason === SERVICE_CREDENTIAL_REFUSALS.onBehalfOfRequired)
  );
}

/**
 * The readiness probe's answer when the credential is accepted: it needs a user to act for, and the probe names none.
 */
function acceptsTheCredential(error: unknown): boolean {
  return (
    error instanceof Forbidden &&
    ((error as ServiceError).data as { reason?: unknown } | undefined)?.reason ===
      SERVICE_CREDENTIAL_REFUSALS.onBehalfOfRequired
  );
}

/**
 * Binds a definition to another server's REST API with the service credential of
 * `<NAME>_REMOTE_TOKEN`. The remote's answers about a request (400, 404, 409, ...) pass through
 * as they are; an unreachable remote, one that refuses the credential or fails itself becomes a
 * 503 or 502 that names the service only (never addresses, ports or network error codes), with
 * one warning in the log per outage and one line when it is back.
 */
export function bindRemote(
  definition: ServiceDefinition,
  remote: RemoteSettings,
  logger: LoggerPort,
  connection: RemoteConnection,
  observers: RemoteObservers = {},
): RemoteBinding {
  // No default headers: the credential goes only with calls made for a signed-in user (remoteParams).
  const client = rest(remote.url)
    .fetch(connection.fetch, { tracer: observers.tracer })
    .service(definition.path) as RemoteService;
  client.methods(...definition.methods.filter((name) => typeof client[name] !== 'function'));
  let down = false;
  /**
   * `withCredential`: the call carried this server's credential, so a 401 or a scope refusal is
   * about the credential, not the caller. An outage's warning names the trace of the call (`parent`) that met it.
   */
  const failure = (error: unknown, withCredential: boolean, parent?: TraceParent): unknown => {
    const code = error instanceof ServiceError ? error.code : 500;
    const unreachable = error instanceof Unavailable || error instanceof Timeout || !(error instanceof ServiceError);
    const refused = withCredential && (error instanceof NotAuthenticated || refusesTheCredential(error));
    if (!unreachable && !refused && code < 500) return error;
    observers.metrics?.remoteBindingError(definition.path);
    if (!down) {
      down = true;
      const reason = unreachable
        ? 'is unreachable'
        : refused
          ? "refuses this server's credential (<NAME>_REMOTE_TOKEN)"
          : `failed with ${code}`;
      const trace = parent !== undefined && observers.tracer ? observers.tracer.logFields(parent) : undefined;
      logger.warn(
        { service: definition.path, remote: remote.url, err: { message: (error as Error)?.message }, ...trace },
        `remote service '${definition.path}' ${reason}`,
      );
    }
    return unreachable || refused || code === 503
      ? new Unavailable(`The '${definition.path}' service is unavailable`)
      : new BadGateway(`The '${definition.path}' service failed`);
  };
  const succeeded = () => {
    if (!down) return;
    down = false;
    logger.info(
      { service: definition.path, remote: remote.url },
      `remote service '${definition.path}' is reachable again`,
    );
  };
  const store: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of definition.methods) {
    const paramsAt = argumentNames(method).indexOf('params');
    store[method] = async (...args: unknown[]) => {
      const call = [...args];
      const forwarded = remoteParams(call[paramsAt] as Params | undefined, remote.token);
      call[paramsAt] = forwarded;
      try {
        const result = await client[method](...call);
        succeeded();
        return result;
      } catch (error) {
        throw failure(error, forwarded.headers !== undefined, forwarded[TRACE_PARENT]);
      }
    };
  }
  return {
    path: definition.path,
    readiness: remote.readiness,
    store: store as unknown as ServiceMethods,
    close: () => connection.close(),
    /**
     * A call with the credential and no user: the storing server verifies the credential and its
     * scope for `find`, then refuses it for want of a user to act for, which is the answer that
     * shows the credential is accepted (a server that predates scopes answers it instead).
     */
    async check() {
      try {
        await client.find({
          query: { $limit: 0 },
          headers: remote.token ? { Authorization: `Bearer ${remote.token}` } : {},
        });
        succeeded();
      } catch (error) {
        if (acceptsTheCredential(error)) return succeeded();
        const mapped = failure(error, remote.token !== undefined);
        throw mapped instanceof ServiceError && mapped.code >= 500
          ? mapped
          : new Unavailable(`The '${definition.path}' service is unavailable`);
      }
    },
  };
}
