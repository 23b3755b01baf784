import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Application } from '../../application/app/application';
import { takesData } from '../../application/app/service-call';
import type { HookContext } from '../../application/hooks/hook-context';
import { bearerAuthentication } from '../../application/transport/bearer-token';
import { currentRoutes, type RouteMatch } from '../../application/transport/route-table';
import { answerOf, callThroughTransport } from '../../application/transport/transport-call';
import { MethodNotAllowed, NotFound } from '../../domain/errors';
import { encodeLocation } from './encode-location';
import { answerHealth, answerReady, HEALTH_PATH, READY_PATH } from './health-check';
import type { HttpAdapterSettings } from './http-adapter-options';
import { HttpExchange } from './http-exchange';
import { allowedHttpMethods, isCallable, serviceMethodFor } from './http-method-mapping';
import { parseQueryString } from './parse-query-string';
import { readRequestBody } from './read-request-body';
import { responseStatus } from './response-status';
import { createRequestIdSource } from './request-id';

export interface ServiceRouter {
  /**
   * Answers a request for a service, `/health` or `/ready` and returns true; returns false, having
   * done nothing, for any other path (or one that does not decode).
   */
  tryServe(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * Answers a request nothing else served: with `error` as JSON when one is given, otherwise as
   * `tryServe` would (CORS preflights included), which for an unknown path is the JSON 404.
   */
  answerUnrouted(req: IncomingMessage, res: ServerResponse, error?: unknown): void;
}

/** What a path addresses: a probe or a service route. */
type Target = typeof HEALTH_PATH | typeof READY_PATH | RouteMatch;

/**
 * The router serving every service of `app` (no per-resource routes): it matches the
 * path in a route table rebuilt only when `app.version` changes, maps the verb to a service
 * method, parses the query string once, reads the body only for methods that take data, runs
 * `app.execute` and writes the result. It works on Node's own request and response, so it
 * answers without Express's dispatch; every answer, 404 included, is JSON.
 */
export function createServiceRouter(app: Application, settings: HttpAdapterSettings): ServiceRouter {
  const nextRequestId = createRequestIdSource();
  const routes = currentRoutes(app);
  const targetOf = (verb: string, pathname: string): Target | undefined => {
    if ((verb === 'GET' || verb === 'HEAD') && (pathname === HEALTH_PATH || pathname === READY_PATH)) return pathname;
    return routes().match(pathname);
  };

  /**
   * Serves one request; `known` is the path's target when the caller resolved it already,
   * otherwise it is resolved here, after CORS. One async function per request, exchange included.
   */
  const run = async (req: IncomingMessage, res: ServerResponse, known?: Target): Promise<void> => {
    const exchange = new HttpExchange(req, res, nextRequestId(req.headers['x-request-id']), settings);
    try {
      const url = req.url ?? '/';
      const queryAt = url.indexOf('?');
      const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
      const verb = req.method ?? 'GET';
      if (settings.cors) {
        const corsHeaders = settings.cors.headersFor(req.headers);
        if (corsHeaders) {
          Object.assign(exchange.headers, corsHeaders);
          if (settings.cors.isPreflight(verb, req.headers)) {
            Object.assign(exchange.headers, settings.cors.preflightHeaders());
            return exchange.send(204);
          }
        }
      }
      const target = known ?? targetOf(verb, pathname);
      if (target === HEALTH_PATH) return answerHealth(exchange);
      if (target === READY_PATH) return await answerReady(exchange, settings.readiness);
      if (!target) throw new NotFound('Page not found', { url: pathname.slice(0, 200) });
      const { entry, id } = target;
      const hasId = id !== undefined;
      const header = verb === 'POST' ? headerValue(req.headers['x-service-method']) || undefined : undefined;
      const method = serviceMethodFor(verb, hasId, header);
      if (method === undefined || !isCallable(method, entry.service.methods, header !== undefined)) {
        exchange.headers.allow = allowedHttpMethods(entry.service.methods, hasId);
        throw new MethodNotAllowed(method === undefined ? `Method ${verb.slice(0, 20)} not allowed` : `Method \`${method.slice(0, 100)}\` is not supported by this endpoint.`);
      }
      const query = parseQueryString(queryAt === -1 ? '' : url.slice(queryAt + 1));
      const data = takesData(method) ? await readRequestBody(req, settings.bodyLimit) : undefined;
      const context = await callThroughTransport(app, target, method, { id: hasId ? id : null, data, query }, {
        provider: 'rest', headers: req.headers, ip: exchange.clientAddress(), authentication: bearerAuthentication(req.headers.authorization),
      });
      sendResult(exchange, method, context);
    } catch (error: unknown) {
      exchange.sendError(error);
    }
  };
  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown): void => {
    new HttpExchange(req, res, nextRequestId(req.headers['x-request-id']), settings).sendError(error);
  };

  return {
    tryServe(req, res) {
      const url = req.url ?? '/';
      const queryAt = url.indexOf('?');
      let target: Target | undefined;
      try {
        target = targetOf(req.method ?? 'GET', queryAt === -1 ? url : url.slice(0, queryAt));
      } catch {
        return false;
      }
      if (target === undefined) return false;
      void run(req, res, target);
      return true;
    },
    answerUnrouted(req, res, error) {
      // The Express app set the pages' headers first; a JSON answer carries the API set instead.
      if (!res.headersSent) for (const name of Object.keys(settings.securityHeaders)) res.removeHeader(name);
      if (error == null) void run(req, res);
      else fail(req, res, error);
    },
  };
}

function sendResult(exchange: HttpExchange, method: string, context: HookContext): void {
  const body = answerOf(context);
  const http = context.http;
  if (http?.headers) for (const [name, value] of Object.entries(http.headers)) exchange.headers[name.toLowerCase()] = value;
  if (http?.location !== undefined) exchange.headers.location = encodeLocation(http.location);
  exchange.send(responseStatus(method, http, body), body === null ? undefined : body);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
