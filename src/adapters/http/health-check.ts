import { Unavailable, type ServiceError } from '../../domain/errors';
import type { MetricsExposition } from '../../ports/metrics.port';
import type { HttpExchange } from './http-exchange';

export const HEALTH_PATH = '/health';
export const READY_PATH = '/ready';
export const METRICS_PATH = '/metrics';

/** Liveness: the process answers. */
export function answerHealth(exchange: HttpExchange): void {
  exchange.send(200, { status: 'ok' });
}

/**
 * Readiness: the application's own check (e.g. a database ping); 503 when it resolves `false` or
 * rejects. A check that rejects with a 503 of its own (naming what is down) is answered with it.
 */
export async function answerReady(
  exchange: HttpExchange,
  readiness: (() => Promise<unknown> | unknown) | undefined,
): Promise<void> {
  let ready = true;
  let reason: ServiceError | undefined;
  try {
    if (readiness) ready = (await readiness()) !== false;
  } catch (error) {
    ready = false;
    if (error instanceof Unavailable) reason = error;
  }
  if (ready) exchange.send(200, { status: 'ready' });
  else exchange.sendError(reason ?? new Unavailable('The service is not ready'));
}

/** The measurements in the scraper's format (Prometheus text). */
export async function answerMetrics(exchange: HttpExchange, metrics: MetricsExposition): Promise<void> {
  exchange.sendPage(200, { 'content-type': metrics.contentType }, await metrics.text());
}
