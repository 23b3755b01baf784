import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { ownField, setOwnField } from '../query/own-field';
import { describeElement } from './describe-value';
import { applyNumericOperator, assertNumericTarget } from './simple-update';

const NUMERIC_OPERATORS = new Set(['$inc', '$mul', '$min', '$max']);

interface Step {
  readonly operator: string;
  readonly path: string;
  readonly value: unknown;
}

/**
 * Takes the `$inc` / `$mul` / `$min` / `$max` fields out of a modifier that the simple path could
 * not apply (array elements, `$`, `$[]`, `$[id]`), so they keep BSON widths and decimal arithmetic
 * instead of going through mingo's updater, which computes on JS numbers only. Left in place when
 * a path overlaps another operator's (two positional paths may name the same element).
 */
export function takeNumericSteps(modifier: Document): Step[] {
  const steps: Step[] = [];
  const otherPaths: string[] = [];
  for (const [operator, fields] of Object.entries(modifier)) {
    for (const [path, value] of Object.entries(fields as Document)) {
      if (NUMERIC_OPERATORS.has(operator)) steps.push({ operator, path, value });
      else otherPaths.push(path);
    }
  }
  const all = [...steps.map((step) => step.path), ...otherPaths];
  if (
    steps.length === 0 ||
    all.some((path, i) => all.some((other, j) => i !== j && (other === path || other.startsWith(`${path}.`))))
  )
    return [];
  for (const operator of NUMERIC_OPERATORS) delete modifier[operator];
  return steps;
}

/** Applies the steps in place (positional paths were made concrete before, see expand-positional.ts). */
export function applyNumericSteps(doc: Document, steps: Step[]): void {
  for (const step of steps) {
    const [container, key] = resolveTarget(doc, step.path.split('.'));
    assertNumericTarget(step.operator, ownField(container, String(key)), step.path);
    applyNumericOperator(step.operator, container, key, step.value);
  }
}

/** The container and key the path ends at, creating missing objects on the way. */
function resolveTarget(doc: Document, parts: string[]): [Document | unknown[], string | number] {
  let node: Document | unknown[] = doc;
  for (let depth = 0; depth < parts.length - 1; depth++) {
    const part = parts[depth];
    const key = Array.isArray(node) ? arrayIndex(node, part, parts[depth - 1]) : part;
    if (ownField(node, String(key)) === undefined || ownField(node, String(key)) === null)
      setOwnField(node, String(key), {});
    const next = ownField(node, String(key));
    if (next === null || typeof next !== 'object') {
      throw new CommandError(
        'PathNotViable',
        `Cannot create field '${parts[depth + 1]}' in element ${describeElement(String(key), next)}`,
      );
    }
    node = next as Document | unknown[];
  }
  const last = parts[parts.length - 1];
  return [node, Array.isArray(node) ? arrayIndex(node, last, parts[parts.length - 2]) : last];
}

function arrayIndex(array: unknown[], part: string, field: string | undefined): number {
  if (/^\d+$/.test(part)) return Number(part);
  throw new CommandError(
    'PathNotViable',
    `Cannot create field '${part}' in element ${describeElement(field ?? '', array)}`,
  );
}
