import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { compileFilter } from '../query/match';
import { ownField, setOwnField } from '../query/own-field';
import { cloneDocument } from '../storage/clone-document';
import { describeValue } from './describe-value';

export interface PositionalSettings {
  readonly filter: Document;
  readonly arrayFilters?: Document[];
}

/** Whether a path holds `$`, `$[]` or `$[id]`. */
export function isPositionalPath(path: string): boolean {
  return path.includes('$') && path.split('.').some(isPositionalPart);
}

function isPositionalPart(part: string): boolean {
  return part === '$' || (part.startsWith('$[') && part.endsWith(']'));
}

/**
 * Rewrites each `$`, `$[]` and `$[id]` path of the modifier into the concrete paths it names in
 * `doc`, all resolved against the document before any change (as mongod does). mingo's updater
 * then sees plain paths: it treats `children.$.a` and `children.$.b` as a conflict, which mongod
 * does not (Mongoose sends both for every subdocument with timestamps).
 */
export function expandPositionalPaths(doc: Document, modifier: Document, settings: PositionalSettings): Document {
  const expanded: Document = {};
  let matchedIndex: number | undefined;
  const positional = (array: unknown[], walked: string[]) =>
    (matchedIndex ??= positionalIndex(doc, array, walked, settings.filter));
  for (const [operator, fields] of Object.entries(modifier)) {
    const concrete: Document = {};
    for (const [path, value] of Object.entries(fields as Document)) {
      if (!isPositionalPath(path)) setOwnField(concrete, path, value);
      else for (const target of concretePaths(doc, path, settings, positional)) setOwnField(concrete, target, value);
    }
    if (Object.keys(concrete).length > 0) expanded[operator] = concrete;
  }
  return expanded;
}

function concretePaths(
  doc: Document,
  path: string,
  settings: PositionalSettings,
  positional: (array: unknown[], walked: string[]) => number,
): string[] {
  const parts = path.split('.');
  if (parts.filter((part) => part === '$').length > 1)
    throw new CommandError('BadValue', `Too many positional (i.e. '$') elements found in path '${path}'`);
  const out: string[] = [];
  const walk = (node: unknown, depth: number, walked: string[]): void => {
    if (depth === parts.length) {
      out.push(walked.join('.'));
      return;
    }
    const part = parts[depth];
    if (!isPositionalPart(part)) {
      walk(node !== null && typeof node === 'object' ? ownField(node, part) : undefined, depth + 1, [...walked, part]);
      return;
    }
    if (part === '$') {
      if (!Array.isArray(node))
        throw new CommandError('BadValue', 'The positional operator did not find the match needed from the query.');
      const index = positional(node, walked);
      walk(node[index], depth + 1, [...walked, String(index)]);
      return;
    }
    const field = walked.join('.');
    if (node === undefined)
      throw new CommandError(
        'BadValue',
        `The path '${field}' must exist in the document in order to apply array updates.`,
      );
    if (!Array.isArray(node))
      throw new CommandError(
        'BadValue',
        `Cannot apply array updates to non-array element ${walked[walked.length - 1]}: ${describeValue(node)}`,
      );
    const identifier = part.slice(2, -1);
    const matches = identifier === '' ? () => true : arrayFilterFor(identifier, settings.arrayFilters, path);
    node.forEach((element, index) => {
      if (matches({ [identifier]: element })) walk(element, depth + 1, [...walked, String(index)]);
    });
  };
  walk(doc, 0, []);
  return out;
}

/** `$`: the first element for which the query matches with the array reduced to that element. */
function positionalIndex(doc: Document, array: unknown[], walked: string[], filter: Document): number {
  const arrayPath = walked.join('.');
  const matches = compileFilter(filter);
  for (let index = 0; index < array.length && mentionsPath(filter, arrayPath); index++) {
    const probe = cloneDocument(doc);
    let holder: unknown = probe;
    for (const key of walked.slice(0, -1)) holder = ownField(holder as object, key);
    setOwnField(holder as object, walked[walked.length - 1], [array[index]]);
    if (matches(probe)) return index;
  }
  throw new CommandError('BadValue', 'The positional operator did not find the match needed from the query.');
}

function arrayFilterFor(
  identifier: string,
  arrayFilters: Document[] | undefined,
  path: string,
): (doc: Document) => boolean {
  const spec = arrayFilters?.find((candidate) => namesIdentifier(candidate, identifier));
  if (!spec)
    throw new CommandError('BadValue', `No array filter found for identifier '${identifier}' in path '${path}'`);
  return compileFilter(spec);
}

/**
 * Whether an arrayFilters document is the one for `identifier` (its fields start with it, inside `$and` / `$or` /
 * `$nor` too).
 */
function namesIdentifier(filter: Document, identifier: string): boolean {
  return Object.entries(filter).some(([key, value]) => {
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value))
      return value.some((branch) => namesIdentifier(branch as Document, identifier));
    return key === identifier || key.startsWith(`${identifier}.`);
  });
}

/** Whether a query condition names the array (the positional operator needs one that does). */
function mentionsPath(filter: Document, path: string): boolean {
  return Object.entries(filter).some(([key, value]) => {
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value))
      return value.some((branch) => mentionsPath(branch as Document, path));
    return key === path || key.startsWith(`${path}.`);
  });
}
