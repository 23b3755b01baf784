import type { MetricsPort } from '../../ports/metrics.port';
import type { TracerPort } from '../../ports/tracer.port';
import type { RouteMatch } from '../../application/transport/route-table';
import type { HttpExchange } from './http-exchange';

/** Serves one request to a service route inside its server span and measures it. */
export type ObservedRequest = (exchange: HttpExchange, verb: string, target: RouteMatch, serve: () => Promise<void>) => Promise<void>;

/**
 * The HTTP server side of tracing and metrics (undefined with neither). The span continues the
 * caller's trace (`traceparent`), is named `<verb> <route>` after the route template (a record's
 * id is `:id`: the name and the metric's labels stay a bounded set) and carries the answer's status.
 */
export function observeRequests(tracer: TracerPort | undefined, metrics: MetricsPort | undefined): ObservedRequest | undefined {
  if (!tracer && !metrics) return undefined;
  const measured: ObservedRequest = metrics
    ? async (exchange, verb, target, serve) => {
        const startedAt = performance.now();
        await serve();
        metrics.httpRequest(verb, routeTemplate(target), exchange.res.statusCode, (performance.now() - startedAt) / 1000);
      }
    : (_exchange, _verb, _target, serve) => serve();
  if (!tracer) return measured;
  return (exchange, verb, target, serve) => {
    const { req } = exchange;
    const route = routeTemplate(target);
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const attributes = {
      'http.request.method': verb,
      'http.route': route,
      // The path only: a query string may hold anything the client put there.
      'url.path': (queryAt === -1 ? url : url.slice(0, queryAt)).slice(0, 200),
      'url.scheme': 'http',
      'hexa.request_id': exchange.requestId,
    };
    return tracer.inSpan(`${verb} ${route}`, { role: 'server', attributes, remoteParent: req.headers }, async (span) => {
      await measured(exchange, verb, target, serve);
      const status = exchange.res.statusCode;
      span.setAttributes({ 'http.response.status_code': status });
      if (status >= 500) span.setAttributes({ 'error.type': String(status) });
    });
  };
}

/** `/<service path>` or `/<service path>/:id`: the path's placeholders stay placeholders. */
function routeTemplate(target: RouteMatch): string {
  return target.id === undefined ? `/${target.entry.service.path}` : `/${target.entry.service.path}/:id`;
}
