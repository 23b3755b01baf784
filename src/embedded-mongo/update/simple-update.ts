import type { Document } from 'bson';
import { addNumbers, isBsonNumber } from '../query/bson-numbers';
import { cloneDocument } from '../storage/clone-document';

const SIMPLE_OPERATORS = new Set(['$set', '$unset', '$inc']);

/**
 * Applies `$set` / `$unset` / `$inc` on plain object paths in place, without mingo: its updater
 * rebuilds an operator context per call, which dominated `updateOne` by `_id`. Returns false
 * (leaving `doc` untouched) whenever anything needs the general semantics: arrays on the path,
 * positional operators, overlapping paths, non-numeric `$inc`.
 */
export function trySimpleUpdate(doc: Document, modifier: Document): boolean {
  const steps: Array<[string, string[], unknown]> = [];
  const paths: string[] = [];
  for (const [operator, fields] of Object.entries(modifier)) {
    if (!SIMPLE_OPERATORS.has(operator)) return false;
    for (const [path, value] of Object.entries(fields as Document)) {
      const parts = path.split('.');
      if (parts.some((part) => part === '' || part.startsWith('$'))) return false;
      if (operator === '$inc' && !isBsonNumber(value)) return false;
      paths.push(path);
      steps.push([operator, parts, value]);
    }
  }
  if (hasOverlap(paths)) return false;
  const targets = steps.map(([, parts]) => resolveParent(doc, parts));
  if (targets.some((target) => target === undefined)) return false;
  for (let i = 0; i < steps.length; i++) {
    const [operator, parts] = steps[i];
    const current = targets[i]!.parent?.[parts[parts.length - 1]];
    if (operator === '$inc' && current !== undefined && !isBsonNumber(current)) return false;
  }
  steps.forEach(([operator, parts, value], i) => {
    const field = parts[parts.length - 1];
    const parent = targets[i]!.parent ?? createPath(doc, parts);
    if (operator === '$unset') delete parent[field];
    else if (operator === '$set') parent[field] = cloneDocument(value);
    else parent[field] = addNumbers(parent[field] ?? 0, value); // keeps int / long / double widths
  });
  return true;
}

/** The object holding the last path segment; `parent: undefined` when part of the path is missing. */
function resolveParent(doc: Document, parts: string[]): { parent?: Document } | undefined {
  let node: unknown = doc;
  for (const part of parts.slice(0, -1)) {
    const next = (node as Document)[part];
    if (next === undefined) return { parent: undefined };
    if (next === null || typeof next !== 'object' || next.constructor !== Object) return undefined;
    node = next;
  }
  return { parent: node as Document };
}

function createPath(doc: Document, parts: string[]): Document {
  let node = doc;
  for (const part of parts.slice(0, -1)) {
    node[part] ??= {};
    node = node[part] as Document;
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
