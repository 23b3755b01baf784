import { checkPatchData } from '../../application/adapter/patch-data';
import { BadRequest } from '../../domain/errors';
import { echo } from '../../domain/echo';
import { copyWith } from '../../domain/plain-record';
import { cloneRecord } from './clone-record';

type AnyRecord = Record<string, any>;

/** The update operators the memory adapter can apply. */
export const MEMORY_UPDATE_OPERATORS: readonly string[] = ['$set', '$inc', '$addToSet', '$pull'];

/**
 * Patch data checked once: plain (and `$set`) fields to assign, `$inc` amounts, and the values
 * `$addToSet` adds to or `$pull` removes from arrays, by path.
 */
export interface MemoryPatch {
  readonly set: AnyRecord;
  readonly inc: ReadonlyMap<string, number>;
  readonly addToSet: ReadonlyMap<string, unknown>;
  readonly pull: ReadonlyMap<string, unknown>;
}

/**
 * Checks patch data by the rules every store shares (`checkPatchData`), then what the memory
 * adapter can apply: `$set`, `$inc` with finite numbers, `$addToSet` and `$pull` of one plain
 * value (no `$each`, no conditions), on top-level or dotted paths.
 */
export function compileMemoryPatch(data: AnyRecord, idField: string, allowedOperators: readonly string[]): MemoryPatch {
  const { set, operators } = checkPatchData(data, { protectedFields: [idField], allowedOperators });
  const patch = {
    set,
    inc: new Map<string, number>(),
    addToSet: new Map<string, unknown>(),
    pull: new Map<string, unknown>(),
  };
  for (const [operator, fields] of Object.entries(operators)) {
    for (const [path, operand] of Object.entries(fields)) {
      if (operator === '$inc') {
        if (typeof operand !== 'number' || !Number.isFinite(operand))
          throw new BadRequest(`$inc needs a number for '${echo(path)}'`);
        patch.inc.set(path, operand);
      } else if (operator === '$addToSet' || operator === '$pull') {
        if (
          typeof operand === 'object' &&
          operand !== null &&
          !Array.isArray(operand) &&
          Object.keys(operand).some((key) => key.startsWith('$'))
        ) {
          throw new BadRequest(`${echo(operator)} takes one value here, not operators, for '${echo(path)}'`);
        }
        (operator === '$pull' ? patch.pull : patch.addToSet).set(path, operand);
      } else {
        throw new BadRequest(`Update operator ${echo(operator)} is not allowed`);
      }
    }
  }
  return patch;
}

/**
 * A new record with the patch applied; throws 400 (changing nothing) when an operator meets a field of the wrong type.
 */
export function applyMemoryPatch<T extends AnyRecord>(record: T, patch: MemoryPatch, idField: string): T {
  const next: AnyRecord = copyWith(record, cloneRecord(patch.set));
  for (const [path, amount] of patch.inc) {
    const { parent, last } = writableParent(next, path, '$inc');
    const current = parent[last] ?? 0;
    if (typeof current !== 'number') throw new BadRequest(`Cannot apply $inc to the non-numeric field '${echo(path)}'`);
    parent[last] = current + amount;
  }
  for (const [path, value] of patch.addToSet) {
    const { parent, last } = writableParent(next, path, '$addToSet');
    const current = arrayAt(parent[last], path, '$addToSet');
    parent[last] = current.some((item) => sameValue(item, value))
      ? current
      : [...current, cloneRecord({ value }).value];
  }
  for (const [path, value] of patch.pull) {
    const { parent, last } = writableParent(next, path, '$pull');
    if (parent[last] === undefined) continue;
    parent[last] = arrayAt(parent[last], path, '$pull').filter((item) => !sameValue(item, value));
  }
  next[idField] = record[idField];
  return next as T;
}

/** The object holding the last part of `path`, copied on the way so the stored record is not changed. */
function writableParent(record: AnyRecord, path: string, operator: string): { parent: AnyRecord; last: string } {
  const parts = path.split('.');
  const last = parts.pop()!;
  let parent: AnyRecord = record;
  for (const part of parts) {
    const child = parent[part];
    if (child === undefined || child === null) parent[part] = {};
    else if (typeof child !== 'object' || Array.isArray(child))
      throw new BadRequest(`Cannot apply ${echo(operator)} below the non-object '${echo(part)}'`);
    else parent[part] = { ...child };
    parent = parent[part];
  }
  return { parent, last };
}

function arrayAt(value: unknown, path: string, operator: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new BadRequest(`Cannot apply ${echo(operator)} to the non-array field '${echo(path)}'`);
  return value;
}

/** Equality as MongoDB compares array elements for these operators: by value, objects by their fields in order. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return JSON.stringify(a) === JSON.stringify(b);
}
