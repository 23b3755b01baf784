/**
 * One hook for each of `methods`, as a hook map's entry (`{ before: byMethod(methods, hook) }`).
 * By method, not `all`: hooks for `all` run before every method's own, so a hook that must run
 * after the per-method hooks registered before it (authentication, validation) is listed per method.
 */
export function byMethod<H>(methods: readonly string[], hook: H): Record<string, H[]> {
  return Object.fromEntries(methods.map((method) => [method, [hook]]));
}
