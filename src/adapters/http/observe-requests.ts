import type { MetricsPort } from '../../ports/metrics.port';
import type { TracerPort } from '../../ports/tracer.port';
import type { RouteMatch } from '../../application/transport/route-table';
import type { HttpExchange } from './http-exchange';

/** Serves one request to a service route inside its server span and measures it. */
export type ObservedRequest = (
  exchange: HttpExchange,
  verb: string,
  target: RouteMatch,
  serve: () => Promise<void>,
) => Promise<void>;

/**
 * The HTTP server side of tracing and metrics (undefined with neither). The span continues the
 * caller's trace (`traceparent`), is named `<verb> <route>` after the route template (a record's
 * id is `:id`: the name and the metric's labels stay a bounded set) and carries the answer's status.
 * The exchange keeps the span's context: the call made for the request is its child, and the
 * request's log line names it.
 */
export function observeRequests(
  tracer: TracerPort | undefined,
  metrics: MetricsPort | undefined,
): ObservedRequest | undefined {
  if (!tracer && !metrics) return undefined;
  const measured: ObservedRequest = metrics
    ? async (exchange, verb, target, serve) => {
        const startedAt = performance.now();
        await serve();
        metrics.httpRequest(
          verb,
          routeTemplate(target),
          exchange.res.statusCode,
          (performance.now() - startedAt) / 1000,
        );
      }
    : (_exchange, _verb, _target, serve) => serve();
  if (!tracer) return measured;
  return (exchange, verb, target, serve) => {
    const route = routeTemplate(target);
    const attributes = () => {
      const url = exchange.req.url ?? '/';
      const queryAt = url.indexOf('?');
      return {
        'http.request.method': verb,
        'http.route': route,
        // The path only: a query string may hold anything the client put there.
        'url.path': (queryAt === -1 ? url : url.slice(0, queryAt)).slice(0, 200),
        'url.scheme': 'http',
        'hexa.request_id': exchange.requestId,
      };
    };
    return tracer.inSpan(
      `${verb} ${route}`,
      { role: 'server', attributes, remoteParent: exchange.req.headers },
      undefined,
      (span, context) => {
        exchange.traceContext = context;
        const served = measured(exchange, verb, target, serve);
        // A request left out by sampling waits on nothing more than its answer.
        if (!span.recording) return served;
        return served.then(() => {
          const status = exchange.res.statusCode;
          span.setAttributes(
            status >= 500
              ? { 'http.response.status_code': status, 'error.type': String(status) }
              : { 'http.response.status_code': status },
          );
        });
      },
    );
  };
}

/** `/<service path>` or `/<service path>/:id`: the path's placeholders stay placeholders. */
function routeTemplate(target: RouteMatch): string {
  return target.id === undefined ? `/${target.entry.service.path}` : `/${target.entry.service.path}/:id`;
}
