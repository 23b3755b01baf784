import type { Document } from 'bson';
import type { Context } from 'mingo';
import { isBsonNumber, numberValue } from './bson-numbers';
import { RAW_SOURCE, rawOf } from './match-view';
import { unwrapLiteral } from './typed-literal';

export type ExpressionOperator = (obj: unknown, expr: unknown, options: unknown) => unknown;
export type AccumulatorOperator = (collection: unknown[], expr: unknown, options: unknown) => unknown;
export interface EvaluationOptions {
  context: Context;
  local?: { root?: unknown };
}

/** Evaluates an expression with mingo (missing becomes null). */
export function evaluate(obj: unknown, expr: unknown, options: unknown): unknown {
  const ifNull = (options as EvaluationOptions).context.getOperator(
    'expression' as never,
    '$ifNull',
  ) as ExpressionOperator;
  return ifNull(obj, [expr, null], options);
}

/**
 * Typed operands for the server's aggregation operators: mingo evaluates on plain views, and a
 * field path's value is then read again from the typed document it came from.
 */

/** A field path's value as stored (Long, Double, Decimal128), when it is the number mingo saw. */
export function typedPathValue(root: unknown, expr: unknown, plain: unknown): unknown {
  if (typeof expr !== 'string' || !expr.startsWith('$') || expr.startsWith('$$')) return plain;
  // Only numbers have a typed counterpart.
  if (typeof plain !== 'number' && !Array.isArray(plain)) return plain;
  const found = typedAt(root, expr.slice(1).split('.'), 0, undefined);
  if (isBsonNumber(found) && sameNumber(found, plain)) return found;
  if (Array.isArray(found) && Array.isArray(plain) && found.length === plain.length) {
    return found.map((item, i) => (isBsonNumber(item) && sameNumber(item, plain[i]) ? item : plain[i]));
  }
  return plain;
}

/**
 * Follows a path through the live (plain) document: a view it reaches leads to the typed stored
 * value; a copy mingo made (carrying its source, see match-view.ts) to the same field of its source.
 */
function typedAt(node: unknown, parts: string[], depth: number, source: unknown): unknown {
  if (node === null || typeof node !== 'object') return depth === parts.length ? (source ?? node) : undefined;
  const raw = rawOf(node);
  if (raw !== node) return typedAt(raw, parts, depth, undefined);
  if (Array.isArray(node)) {
    const sources = Array.isArray(source) && source.length === node.length ? source : undefined;
    if (depth === parts.length) return node.map((item, i) => typedAt(item, parts, depth, sources?.[i]));
    return node
      .filter((item) => item !== null && typeof item === 'object')
      .map((item) => typedAt(item, parts, depth, undefined));
  }
  if (depth === parts.length) return node;
  const origin = (node as Record<symbol, unknown>)[RAW_SOURCE] ?? source;
  const originField =
    origin !== null && typeof origin === 'object' && !Array.isArray(origin)
      ? (origin as Document)[parts[depth]]
      : undefined;
  return typedAt((node as Document)[parts[depth]], parts, depth + 1, originField);
}

/** A typed number and the plain number mingo computed with for it. */
export function sameNumber(typed: unknown, plain: unknown): boolean {
  if (isBsonNumber(plain))
    return (
      numberValue(typed) === numberValue(plain) ||
      (Number.isNaN(numberValue(typed)) && Number.isNaN(numberValue(plain)))
    );
  return false;
}

export function operands(obj: unknown, expr: unknown, options: unknown): unknown[] {
  const root = (options as EvaluationOptions).local?.root ?? obj;
  return (Array.isArray(expr) ? expr : [expr]).map((arg) =>
    typedPathValue(root, arg, unwrapLiteral(evaluate(obj, arg, options))),
  );
}
