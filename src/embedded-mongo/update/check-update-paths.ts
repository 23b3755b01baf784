import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { bsonTypeName } from '../query/bson-type';
import { ownField } from '../query/own-field';
import { describeElement, describeValue } from './describe-value';

/** Operators that create the path they name when it is missing. */
const CREATING_OPERATORS = new Set([
  '$set',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$push',
  '$addToSet',
  '$currentDate',
  '$bit',
]);

/**
 * Two operators may not touch the same path or a path and one inside it (`a` and `a.b`): mongod's
 * ConflictingUpdateOperators, checked on the paths as written. Positional parts count as field
 * names, so `children.$.a` and `children.$.b` do not conflict.
 */
export function assertNoConflictingPaths(update: Document): void {
  const seen: string[] = [];
  for (const operator in update) {
    const fields = update[operator] as Document;
    for (const path in fields) {
      checkAgainst(seen, path);
      if (operator === '$rename' && typeof fields[path] === 'string') checkAgainst(seen, fields[path] as string);
    }
  }
}

/** Adds `path` to the paths seen so far, refusing it if it is one of them, or inside or around one. */
function checkAgainst(seen: string[], path: string): void {
  for (const other of seen) {
    const [shorter, longer] = other.length <= path.length ? [other, path] : [path, other];
    if (shorter === longer || (longer.startsWith(shorter) && longer.charCodeAt(shorter.length) === DOT)) {
      throw new CommandError(
        'ConflictingUpdateOperators',
        `Updating the path '${path}' would create a conflict at '${shorter}'`,
      );
    }
  }
  seen.push(path);
}

const DOT = 46;

/**
 * Checks, before anything changes, what mongod refuses at the target of a (concrete) path: creating
 * a field inside an array or a scalar (PathNotViable), and `$push` / `$addToSet` on a field that
 * holds something other than an array (BadValue).
 */
export function assertUpdateTargets(doc: Document, modifier: Document): void {
  for (const [operator, fields] of Object.entries(modifier)) {
    if (!CREATING_OPERATORS.has(operator)) continue;
    for (const path of Object.keys(fields as Document)) {
      const current = reachableValue(doc, path.split('.'));
      if (current === undefined || Array.isArray(current)) continue;
      if (operator === '$push') {
        throw new CommandError(
          'BadValue',
          `The field '${path}' must be an array but is of type ${bsonTypeName(current)} in document ` +
            `{_id: ${describeValue(doc._id)}}`,
        );
      }
      if (operator === '$addToSet') {
        throw new CommandError(
          'BadValue',
          `Cannot apply $addToSet to non-array field. Field named '${path}' has non-array ` +
            `type ${bsonTypeName(current)}`,
        );
      }
    }
  }
}

/** The value at the path (undefined when missing); throws PathNotViable where the path cannot be created. */
function reachableValue(doc: Document, parts: string[]): unknown {
  let node: unknown = doc;
  for (let depth = 0; depth < parts.length; depth++) {
    const part = parts[depth];
    if (Array.isArray(node) && !/^\d+$/.test(part)) {
      throw new CommandError(
        'PathNotViable',
        `Cannot create field '${part}' in element ${describeElement(parts[depth - 1], node)}`,
      );
    }
    if (node === null || typeof node !== 'object' || (!Array.isArray(node) && node.constructor !== Object)) {
      throw new CommandError(
        'PathNotViable',
        `Cannot create field '${part}' in element ${describeElement(parts[depth - 1], node)}`,
      );
    }
    node = ownField(node, part);
    if (node === undefined) return undefined;
  }
  return node;
}
