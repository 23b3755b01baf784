import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { compileFilter } from '../query/match';
import { cloneDocument } from '../storage/clone-document';
import { applyNumericOperator, assertNumericTarget } from './simple-update';

const NUMERIC_OPERATORS = new Set(['$inc', '$mul', '$min', '$max']);

interface Step {
  readonly operator: string;
  readonly path: string;
  readonly value: unknown;
}

export interface ArrayArithmeticSettings {
  readonly filter: Document;
  readonly arrayFilters?: Document[];
}

/**
 * Takes the `$inc` / `$mul` / `$min` / `$max` fields out of a modifier that the simple path could
 * not apply (array elements, `$`, `$[]`, `$[id]`), so they keep BSON widths and decimal arithmetic
 * instead of going through mingo's updater, which computes on JS numbers only. Left in place when
 * a path overlaps another operator's (mingo reports that conflict).
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
  if (steps.length === 0 || all.some((path, i) => all.some((other, j) => i !== j && (other === path || other.startsWith(`${path}.`))))) return [];
  for (const operator of NUMERIC_OPERATORS) delete modifier[operator];
  return steps;
}

/** Applies the steps in place, resolving positional operators against the filter and arrayFilters. */
export function applyNumericSteps(doc: Document, steps: Step[], settings: ArrayArithmeticSettings): void {
  for (const step of steps) {
    const parts = step.path.split('.');
    const targets: Array<[Document | unknown[], string | number]> = [];
    resolveTargets(doc, doc, parts, 0, [], settings, targets);
    for (const [container, key] of targets) assertNumericTarget(step.operator, (container as Record<string | number, unknown>)[key], step.path);
    for (const [container, key] of targets) applyNumericOperator(step.operator, container, key, step.value);
  }
}

function resolveTargets(
  doc: Document,
  node: Document | unknown[],
  parts: string[],
  depth: number,
  walked: string[],
  settings: ArrayArithmeticSettings,
  out: Array<[Document | unknown[], string | number]>,
): void {
  const part = parts[depth];
  const last = depth === parts.length - 1;
  const descend = (container: Document | unknown[], key: string | number) => {
    if (last) {
      out.push([container, key]);
      return;
    }
    const slot = container as Record<string | number, unknown>;
    if (slot[key] === undefined || slot[key] === null) slot[key] = {};
    const next = slot[key];
    if (next === null || typeof next !== 'object') {
      throw new CommandError('PathNotViable', `Cannot create field '${parts[depth + 1]}' in element {${String(key)}: ${JSON.stringify(next)}}`);
    }
    resolveTargets(doc, next as Document | unknown[], parts, depth + 1, [...walked, String(key)], settings, out);
  };
  if (!Array.isArray(node)) {
    if (part.startsWith('$')) throw new CommandError('BadValue', `The positional operator did not find the match needed from the query.`);
    descend(node, part);
    return;
  }
  if (part === '$[]') node.forEach((_, index) => descend(node, index));
  else if (part === '$') descend(node, positionalIndex(doc, node, walked, settings.filter));
  else if (part.startsWith('$[') && part.endsWith(']')) {
    const matches = arrayFilterFor(part.slice(2, -1), settings.arrayFilters, parts.join('.'));
    node.forEach((element, index) => {
      if (matches({ [part.slice(2, -1)]: element })) descend(node, index);
    });
  } else if (/^\d+$/.test(part)) descend(node, Number(part));
  else throw new CommandError('PathNotViable', `Cannot create field '${part}' in element {${walked[walked.length - 1] ?? ''}: ${JSON.stringify(node)}}`);
}

/** `$`: the first element for which the query matches with the array reduced to that element. */
function positionalIndex(doc: Document, array: unknown[], walked: string[], filter: Document): number {
  const arrayPath = walked.join('.');
  const matches = compileFilter(filter);
  for (let index = 0; index < array.length && mentionsPath(filter, arrayPath); index++) {
    const probe = cloneDocument(doc);
    let holder: unknown = probe;
    for (const key of walked.slice(0, -1)) holder = (holder as Record<string, unknown>)[key];
    (holder as Record<string, unknown>)[walked[walked.length - 1]] = [array[index]];
    if (matches(probe)) return index;
  }
  throw new CommandError('BadValue', 'The positional operator did not find the match needed from the query.');
}

function arrayFilterFor(identifier: string, arrayFilters: Document[] | undefined, path: string): (doc: Document) => boolean {
  const spec = arrayFilters?.find((candidate) => Object.keys(candidate).some((key) => key === identifier || key.startsWith(`${identifier}.`)));
  if (!spec) throw new CommandError('BadValue', `No array filter found for identifier '${identifier}' in path '${path}'`);
  return compileFilter(spec);
}

/** Whether a query condition names the array (the positional operator needs one that does). */
function mentionsPath(filter: Document, path: string): boolean {
  return Object.entries(filter).some(([key, value]) => {
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) return value.some((branch) => mentionsPath(branch as Document, path));
    return key === path || key.startsWith(`${path}.`);
  });
}
