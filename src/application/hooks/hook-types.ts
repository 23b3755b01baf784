import type { HookContext } from './hook-context';

export type NextFunction = () => Promise<void>;
/** The primitive: runs code around everything inside it. */
export type AroundHook = (context: HookContext, next: NextFunction) => Promise<void> | void;
/** Before/after/error hooks: may change the context, or return a partial context to merge. */
export type RegularHook = (context: HookContext) => Promise<HookContext | void> | HookContext | void;

type OneOrMany<T> = T | T[];
type ByMethod<T> = { all?: OneOrMany<T>; [method: string]: OneOrMany<T> | undefined };

/**
 * Accepted registration forms:
 * `{ around|before|after|error: { all|<method>: hook(s) } }`, `{ <method>: aroundHook[] }`,
 * or a bare around hook / array (= `all`).
 */
export type HookMap =
  | OneOrMany<AroundHook>
  | {
      around?: ByMethod<AroundHook>;
      before?: ByMethod<RegularHook>;
      after?: ByMethod<RegularHook>;
      error?: ByMethod<RegularHook>;
    }
  | Record<string, OneOrMany<AroundHook>>;

export const HOOK_TYPES = ['around', 'before', 'after', 'error'] as const;
