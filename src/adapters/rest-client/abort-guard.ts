import { abortError, timeoutError } from './request-errors';

/** One call's cancellation: the caller's signal and the client's timeout folded into one signal. */
export interface AbortGuard {
  /** Pass to the library (or watch it); undefined when the call has neither a signal nor a timeout. */
  readonly signal: AbortSignal | undefined;
  /** The error to throw when the call was cancelled by the caller or timed out; undefined otherwise. */
  failure(): Error | undefined;
  /** Clears the timer and the listener; call when the call settles. */
  dispose(): void;
}

/** Most calls have neither a signal nor a timeout: they share this one. */
const NO_GUARD: AbortGuard = Object.freeze({ signal: undefined, failure: () => undefined, dispose: () => undefined });

/**
 * Built per call so each library can be cancelled the same way and the resulting error says
 * why: the caller aborted (an `AbortError`) or the timeout passed (`Timeout`).
 */
export function createAbortGuard(callerSignal: AbortSignal | undefined, timeout: number | undefined): AbortGuard {
  const hasTimeout = typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0;
  if (!callerSignal && !hasTimeout) return NO_GUARD;
  const controller = new AbortController();
  let failure: Error | undefined;
  const onAbort = (): void => {
    failure ??= abortError(callerSignal?.reason);
    controller.abort(failure);
  };
  if (callerSignal?.aborted) onAbort();
  else callerSignal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    hasTimeout && !failure
      ? setTimeout(() => {
          failure ??= timeoutError(timeout);
          controller.abort(failure);
        }, timeout)
      : undefined;
  return {
    signal: controller.signal,
    failure: () => failure,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}
