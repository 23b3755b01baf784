import { Unavailable } from '../../domain/errors';
import type { HttpExchange } from './http-exchange';

export const HEALTH_PATH = '/health';
export const READY_PATH = '/ready';

/** Liveness: the process answers. */
export function answerHealth(exchange: HttpExchange): void {
  exchange.send(200, { status: 'ok' });
}

/** Readiness: the application's own check (e.g. a database ping); 503 when it resolves `false` or rejects. */
export async function answerReady(exchange: HttpExchange, readiness: (() => Promise<unknown> | unknown) | undefined): Promise<void> {
  let ready = true;
  try {
    if (readiness) ready = (await readiness()) !== false;
  } catch {
    ready = false;
  }
  if (ready) exchange.send(200, { status: 'ready' });
  else exchange.sendError(new Unavailable('The service is not ready'));
}
