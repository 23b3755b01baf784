import { ServiceError } from '../../domain/errors';
import type { MetricsPort } from '../../ports/metrics.port';
import type { SpanInProgress, TracerPort } from '../../ports/tracer.port';
import { userIdOf } from '../authentication/owner.hooks';
import type { HookContext } from '../hooks/hook-context';

/** Runs a call's hook chain and method; `Application.execute` hands it to the observer when one is set. */
export type CallChain = (context: HookContext) => Promise<void>;
export type CallObserver = (context: HookContext, chain: CallChain) => Promise<void>;

/**
 * What watches every service call, with tracing, metrics or both (undefined with neither: calls
 * then pay nothing). The span `<path>.<method>` holds the whole hook chain and the method, so the
 * store's and the remote's spans are its children; once the hooks have authenticated the caller
 * it records the real user as `enduser.id` and, for a call made by another server on a user's
 * behalf, that server's credential name as `hexa.acting_service`. Never a token, a body or an e-mail.
 */
export function observeServiceCalls(tracer: TracerPort | undefined, metrics: MetricsPort | undefined): CallObserver | undefined {
  if (!tracer && !metrics) return undefined;
  const measured: CallObserver = metrics
    ? async (context, chain) => {
        const startedAt = performance.now();
        let status = 200;
        try {
          await chain(context);
        } catch (error) {
          status = error instanceof ServiceError ? error.code : 500;
          throw error;
        } finally {
          metrics.serviceCall(context.path, context.method, status, (performance.now() - startedAt) / 1000);
        }
      }
    : (context, chain) => chain(context);
  if (!tracer) return measured;
  return (context, chain) =>
    tracer.inSpan(`${context.path}.${context.method}`, { role: 'internal', attributes: { 'hexa.service.path': context.path, 'hexa.service.method': context.method, 'hexa.call.provider': context.params.provider ?? 'internal' } }, async (span) => {
      try {
        await measured(context, chain);
      } finally {
        recordCaller(span, context);
      }
    });
}

function recordCaller(span: SpanInProgress, context: HookContext): void {
  const { user, serviceCaller } = context.params;
  if (user && typeof user === 'object') span.setAttributes({ 'enduser.id': userIdOf(user) });
  if (serviceCaller) span.setAttributes({ 'hexa.acting_service': serviceCaller.name });
}
