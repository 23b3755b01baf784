import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { compareBson } from '../query/bson-compare';
import { bsonTypeName } from '../query/bson-type';
import { addNumbers, isBsonNumber, zeroLike } from '../query/bson-numbers';
import { ownField, setOwnField } from '../query/own-field';
import { cloneDocument } from '../storage/clone-document';

const SIMPLE_OPERATORS = new Set(['$set', '$unset', '$inc', '$mul', '$min', '$max']);
const ARITHMETIC = new Set(['$inc', '$mul']);

/**
 * Applies `$set` / `$unset` / `$inc` / `$mul` / `$min` / `$max` on plain object paths in place,
 * without mingo: its updater rebuilds an operator context per call, which dominated `updateOne`
 * by `_id`, and knows nothing of BSON number widths (int, long, double, decimal), which these
 * keep as mongod does. Returns false (leaving `doc` untouched) whenever anything needs the general
 * semantics: arrays on the path, positional operators, overlapping paths. Arithmetic on a field
 * that holds no number is mongod's TypeMismatch.
 */
export function trySimpleUpdate(doc: Document, modifier: Document): boolean {
  const steps: Array<[string, string[], unknown]> = [];
  const paths: string[] = [];
  for (const [operator, fields] of Object.entries(modifier)) {
    if (!SIMPLE_OPERATORS.has(operator)) return false;
    for (const [path, value] of Object.entries(fields as Document)) {
      const parts = path.split('.');
      if (parts.some((part) => part === '' || part.startsWith('$'))) return false;
      paths.push(path);
      steps.push([operator, parts, value]);
    }
  }
  if (hasOverlap(paths)) return false;
  const targets = steps.map(([, parts]) => resolveParent(doc, parts));
  if (targets.some((target) => target === undefined)) return false;
  for (let i = 0; i < steps.length; i++) {
    const [operator, parts] = steps[i];
    const parent = targets[i]!.parent;
    assertNumericTarget(operator, parent && ownField(parent, parts[parts.length - 1]), parts.join('.'));
  }
  steps.forEach(([operator, parts, value], i) => {
    const field = parts[parts.length - 1];
    const parent = targets[i]!.parent ?? createPath(doc, parts);
    if (operator === '$unset') delete parent[field];
    else if (operator === '$set') setOwnField(parent, field, cloneDocument(value));
    else applyNumericOperator(operator, parent, field, value);
  });
  return true;
}

/** `$inc`, `$mul`, `$min` or `$max` on `container[key]` (an object field or an array slot). */
export function applyNumericOperator(
  operator: string,
  container: Document | unknown[],
  key: string | number,
  value: unknown,
): void {
  const field = String(key);
  const current = ownField(container, field);
  // The result has the wider type of the two; int32 overflow widens to int64, as in mongod.
  if (operator === '$inc') setOwnField(container, field, addNumbers(current ?? 0, value));
  // A missing field becomes a zero of the multiplier's type.
  else if (operator === '$mul')
    setOwnField(container, field, current === undefined ? zeroLike(value) : addNumbers(current, value, true));
  // `$min` / `$max` compare in BSON order across types and keep whichever value wins as it is.
  else if (current === undefined || compareBson(value, current) * (operator === '$min' ? -1 : 1) > 0)
    setOwnField(container, field, cloneDocument(value));
}

/** Arithmetic on a field that holds something other than a number is mongod's TypeMismatch. */
export function assertNumericTarget(operator: string, current: unknown, path: string): void {
  if (ARITHMETIC.has(operator) && current !== undefined && !isBsonNumber(current)) {
    throw new CommandError(
      'TypeMismatch',
      `Cannot apply ${operator} to a value of non-numeric type. The field '${path}' has a value of ` +
        `type ${bsonTypeName(current)}`,
    );
  }
}

/** The object holding the last path segment; `parent: undefined` when part of the path is missing. */
function resolveParent(doc: Document, parts: string[]): { parent?: Document } | undefined {
  let node: unknown = doc;
  for (const part of parts.slice(0, -1)) {
    const next = ownField(node as Document, part);
    if (next === undefined) return { parent: undefined };
    if (next === null || typeof next !== 'object' || next.constructor !== Object) return undefined;
    node = next;
  }
  return { parent: node as Document };
}

function createPath(doc: Document, parts: string[]): Document {
  let node = doc;
  for (const part of parts.slice(0, -1)) {
    if (ownField(node, part) === undefined) setOwnField(node, part, {});
    node = ownField(node, part) as Document;
  }
  return node;
}

function hasOverlap(paths: string[]): boolean {
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1] || sorted[i].startsWith(`${sorted[i - 1]}.`)) return true;
  }
  return false;
}
