import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Application } from '../../application/app/application';
import { takesData } from '../../application/app/service-call';
import type { HookContext } from '../../application/hooks/hook-context';
import { bearerAuthentication } from '../../application/transport/bearer-token';
import { currentRoutes, type RouteMatch } from '../../application/transport/route-table';
import { answerOf, callThroughTransport } from '../../application/transport/transport-call';
import { MethodNotAllowed, NotFound } from '../../domain/errors';
import { encodeLocation } from './encode-location';
import { answerHealth, answerMetrics, answerReady, HEALTH_PATH, METRICS_PATH, READY_PATH } from './health-check';
import type { StaticPage } from './docs/api-docs-pages';
import type { HttpAdapterSettings } from './http-adapter-options';
import { answerPage } from './page-answer';
import { HttpExchange } from './http-exchange';
import { allowedHttpMethods, isCallable, serviceMethodFor } from './http-method-mapping';
import { parseQueryString } from './parse-query-string';
import { readRequestBody } from './read-request-body';
import { responseStatus } from './response-status';
import { createRequestIdSource } from './request-id';
import { observeRequests } from './observe-requests';

/** What the Express app calls when none of its routes answered: with an error passed to `next`, or none. */
export type Unanswered = (req: IncomingMessage, res: ServerResponse, error?: unknown) => void;

/** What a path addresses: a probe, the metrics, a fixed page (the API docs) or a service route. */
type Target = typeof HEALTH_PATH | typeof READY_PATH | typeof METRICS_PATH | StaticPage | RouteMatch;

/**
 * The one dispatcher of the HTTP adapter. Every request gets its CORS decision here (a preflight is
 * answered at once), then its target: `/health`, `/ready`, the API docs' pages, or a service route
 * (matched in the route table every transport shares, the verb mapped to a service method, the
 * query string parsed once, the body read only for methods that take data). Anything else goes to
 * `otherRoutes` (the application's Express app), whose unanswered requests come back to
 * `unanswered` for the JSON 404. It works on Node's own request and response: services answer
 * without Express's dispatch.
 */
export function createHttpDispatcher(
  app: Application,
  settings: HttpAdapterSettings,
  pages: ReadonlyMap<string, StaticPage>,
) {
  const nextRequestId = createRequestIdSource();
  const routes = currentRoutes(app);
  const observe = observeRequests(settings.tracer, settings.metrics);
  const targetOf = (verb: string, pathname: string): Target | undefined => {
    if (verb === 'GET' || verb === 'HEAD') {
      if (pathname === HEALTH_PATH || pathname === READY_PATH || (pathname === METRICS_PATH && settings.metrics))
        return pathname;
      const page = pages.get(pathname);
      if (page) return page;
    }
    return routes().match(pathname);
  };
  const exchangeFor = (req: IncomingMessage, res: ServerResponse): HttpExchange =>
    new HttpExchange(req, res, nextRequestId(req.headers['x-request-id']), settings);

  /** Serves a request that has a target; one async function per request, exchange included. */
  const serve = async (
    exchange: HttpExchange,
    verb: string,
    url: string,
    queryAt: number,
    target: Target,
  ): Promise<void> => {
    try {
      if (target === HEALTH_PATH) return answerHealth(exchange);
      if (target === READY_PATH) return await answerReady(exchange, settings.readiness);
      if (target === METRICS_PATH) return await answerMetrics(exchange, settings.metrics!);
      if (!('entry' in target)) return await answerPage(exchange, settings, target);
      const { entry, id } = target;
      const hasId = id !== undefined;
      const { req } = exchange;
      const header = verb === 'POST' ? headerValue(req.headers['x-service-method']) || undefined : undefined;
      const method = serviceMethodFor(verb, hasId, header);
      if (method === undefined || !isCallable(method, entry.service.methods, header !== undefined)) {
        exchange.headers.allow = allowedHttpMethods(entry.service.methods, hasId);
        throw new MethodNotAllowed(
          method === undefined
            ? `Method ${verb.slice(0, 20)} not allowed`
            : `Method \`${method.slice(0, 100)}\` is not supported by this endpoint.`,
        );
      }
      const query = parseQueryString(queryAt === -1 ? '' : url.slice(queryAt + 1));
      const data = takesData(method) ? await readRequestBody(req, settings.bodyLimit) : undefined;
      const context = await callThroughTransport(
        app,
        target,
        method,
        { id: hasId ? id : null, data, query },
        {
          provider: 'rest',
          headers: req.headers,
          ip: exchange.clientAddress(),
          authentication: bearerAuthentication(req.headers.authorization),
          traceParent: exchange.traceContext,
        },
      );
      sendResult(exchange, method, context);
    } catch (error: unknown) {
      exchange.sendError(error);
    }
  };

  /** The JSON 404 (or the error an Express route passed on), for what nothing answered. */
  const unanswered: Unanswered = (req, res, error) => {
    const exchange = exchangeFor(req, res);
    exchange.discardEarlierHeaders();
    if (error != null) return exchange.sendError(error);
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    exchange.sendError(
      new NotFound('Page not found', { url: (queryAt === -1 ? url : url.slice(0, queryAt)).slice(0, 200) }),
    );
  };

  return {
    unanswered,
    dispatch(
      req: IncomingMessage,
      res: ServerResponse,
      otherRoutes: (req: IncomingMessage, res: ServerResponse) => void,
    ): void {
      const url = req.url ?? '/';
      const queryAt = url.indexOf('?');
      const verb = req.method ?? 'GET';
      const cors = settings.headers.cors;
      if (cors?.isPreflight(verb, req.headers) && cors.headersFor(req.headers)) {
        const exchange = exchangeFor(req, res);
        Object.assign(exchange.headers, cors.preflightHeaders());
        return exchange.send(204);
      }
      let target: Target | undefined;
      try {
        target = targetOf(verb, queryAt === -1 ? url : url.slice(0, queryAt));
      } catch (error) {
        return exchangeFor(req, res).sendError(error);
      }
      if (target === undefined) return otherRoutes(req, res);
      const exchange = exchangeFor(req, res);
      if (observe !== undefined && typeof target === 'object' && 'entry' in target)
        void observe(exchange, verb, target, () => serve(exchange, verb, url, queryAt, target));
      else void serve(exchange, verb, url, queryAt, target);
    },
  };
}

function sendResult(exchange: HttpExchange, method: string, context: HookContext): void {
  const body = answerOf(context);
  const http = context.http;
  if (http?.headers)
    for (const [name, value] of Object.entries(http.headers)) exchange.headers[name.toLowerCase()] = value;
  if (http?.location !== undefined) exchange.headers.location = encodeLocation(http.location);
  exchange.send(responseStatus(method, http, body), body === null ? undefined : body);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
