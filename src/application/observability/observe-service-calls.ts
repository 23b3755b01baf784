import { ServiceError } from '../../domain/errors';
import { copyWith } from '../../domain/plain-record';
import type { MetricsPort } from '../../ports/metrics.port';
import { TRACE_PARENT, type SpanInProgress, type TracerPort } from '../../ports/tracer.port';
import { userIdOf } from '../authentication/owner.hooks';
import type { HookContext } from '../hooks/hook-context';

/** Runs a call's hook chain and method; `Application.execute` hands it to the observer when one is set. */
export type CallChain = (context: HookContext) => Promise<void>;
export type CallObserver = (context: HookContext, chain: CallChain) => Promise<void>;

/**
 * What watches every service call, with tracing, metrics or both (undefined with neither: calls
 * then pay nothing). The span `<path>.<method>` is a child of the one the call's params carry
 * (`TRACE_PARENT`: the transport's, or the caller's for an internal call) and holds the whole hook
 * chain and the method; it replaces the parent in the call's params, so the store's, the remote's
 * and the internal calls' spans are its children. Once the hooks have authenticated the caller
 * it records the real user as `enduser.id` and, for a call made by another server on a user's
 * behalf, that server's credential name as `hexa.acting_service`. Never a token, a body or an e-mail.
 */
export function observeServiceCalls(
  tracer: TracerPort | undefined,
  metrics: MetricsPort | undefined,
): CallObserver | undefined {
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
  return (context, chain) => {
    const attributes = () => ({
      'hexa.service.path': context.path,
      'hexa.service.method': context.method,
      'hexa.call.provider': context.params.provider ?? 'internal',
    });
    return tracer.inSpan(
      `${context.path}.${context.method}`,
      { role: 'internal', attributes },
      context.params[TRACE_PARENT],
      (span, parent) => {
        // The call's own params (not the caller's object, which an internal call may share): what it calls is a child
        // of its span. (Under a caller left out by sampling, the call goes on in the caller's context: the same object,
        // nothing copied.)
        if (parent !== context.params[TRACE_PARENT])
          context.params = copyWith(context.params, { [TRACE_PARENT]: parent });
        if (!span.recording) return measured(context, chain);
        return measured(context, chain).finally(() => recordCaller(span, context));
      },
    );
  };
}

function recordCaller(span: SpanInProgress, context: HookContext): void {
  const { user, serviceCaller } = context.params;
  if (user && typeof user === 'object') span.setAttributes({ 'enduser.id': userIdOf(user) });
  if (serviceCaller) span.setAttributes({ 'hexa.acting_service': serviceCaller.name });
}
