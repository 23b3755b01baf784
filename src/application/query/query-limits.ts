/** Keys never accepted anywhere in a query: they reach object prototypes. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Operators that run code or evaluate expressions on the database; no service can allow them
 * in `params.query` (use `params.pipeline` from trusted server code instead).
 */
export const NEVER_ALLOWED_OPERATORS: ReadonlySet<string> = new Set(['$where', '$function', '$accumulator', '$expr']);
