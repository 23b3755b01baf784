import type { HookContext } from './hook-context';
import type { AroundHook, NextFunction, RegularHook } from './hook-types';
import type { HookRegistry } from './hook-registry';

/**
 * Runs around hooks as an onion, `last` innermost. Calling `next` twice is a programming error.
 * Each layer's own promise is the chain's (no async wrapper per layer: a signed-in create crosses
 * eight layers, and each wrapper cost a promise and two ticks).
 */
export function composeAround(hooks: readonly AroundHook[], last: (context: HookContext) => Promise<void>) {
  // No hooks at this method: the method itself, without a dispatch layer (one promise less per call).
  if (hooks.length === 0) return last;
  return (context: HookContext): Promise<void> => {
    const dispatch = (index: number): Promise<void> => {
      if (index === hooks.length) return last(context);
      let called = false;
      const next: NextFunction = () => {
        if (called) return Promise.reject(new Error('next() called more than once in an around hook'));
        called = true;
        return dispatch(index + 1);
      };
      try {
        return Promise.resolve(hooks[index](context, next)) as Promise<void>;
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return dispatch(0);
  };
}

/**
 * Runs the hooks in order; a hook that returns a promise is waited for before the next. Returns a
 * promise only once one did: synchronous hooks (most are) then cost no microtask turn each.
 */
function runRegular(
  hooks: readonly RegularHook[],
  context: HookContext,
  type: HookContext['type'],
  from = 0,
): Promise<void> | undefined {
  for (let index = from; index < hooks.length; index += 1) {
    context.type = type;
    const returned = hooks[index](context);
    if (isThenable(returned)) return finishAfter(returned, hooks, context, type, index + 1);
    if (returned && returned !== context) Object.assign(context, returned);
  }
  return undefined;
}

async function finishAfter(
  pending: PromiseLike<unknown>,
  hooks: readonly RegularHook[],
  context: HookContext,
  type: HookContext['type'],
  next: number,
): Promise<void> {
  const returned = await pending;
  if (returned && returned !== context) Object.assign(context, returned);
  const rest = runRegular(hooks, context, type, next);
  if (rest) await rest;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value instanceof Promise ||
    (typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function')
  );
}

/**
 * Before/after/error hooks of one level as a single around hook: before hooks, then everything
 * inside, then after hooks; on failure the error hooks, which may recover by setting `result`.
 */
export function regularHooksAsAround(registry: HookRegistry, method: string): AroundHook | undefined {
  const before = registry.collect('before', method);
  const after = registry.collect('after', method);
  const onError = registry.collectErrorHooks(method);
  if (before.length + after.length + onError.length === 0) return undefined;
  if (after.length + onError.length === 0) return beforeOnly(before);
  return async (context, next) => {
    try {
      const beforeDone = runRegular(before, context, 'before');
      if (beforeDone) await beforeDone;
      await next();
      const afterDone = runRegular(after, context, 'after');
      if (afterDone) await afterDone;
    } catch (error) {
      if (onError.length === 0) throw error;
      context.error = error;
      context.result = undefined;
      const errorDone = runRegular(onError, context, 'error');
      if (errorDone) await errorDone;
      if (context.result === undefined) throw context.error;
      context.error = undefined;
    } finally {
      context.type = 'around';
    }
  };
}

/** Before hooks alone as an around hook: no async frame of its own where every hook is synchronous. */
function beforeOnly(before: readonly RegularHook[]): AroundHook {
  const entered = (context: HookContext, next: NextFunction): Promise<void> => {
    context.type = 'around';
    return next();
  };
  return (context, next) => {
    let pending: Promise<void> | undefined;
    try {
      pending = runRegular(before, context, 'before');
    } catch (error) {
      context.type = 'around';
      throw error;
    }
    if (pending === undefined) return entered(context, next);
    return pending.then(
      () => entered(context, next),
      (error: unknown) => {
        context.type = 'around';
        throw error;
      },
    );
  };
}

/** The full chain of one level (app or service): its around hooks, then its regular hooks. */
export function levelChain(registry: HookRegistry, method: string): AroundHook[] {
  const regular = regularHooksAsAround(registry, method);
  return [...registry.collect('around', method), ...(regular ? [regular] : [])];
}
