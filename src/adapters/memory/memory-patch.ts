import { checkPatchData } from '../../application/adapter/patch-data';
import { BadRequest } from '../../domain/errors';
import { cloneRecord } from './clone-record';

type AnyRecord = Record<string, any>;

/** The update operators the memory adapter can apply. */
export const MEMORY_UPDATE_OPERATORS: readonly string[] = ['$set', '$inc'];

/** Patch data checked once: plain (and `$set`) fields to assign, and `$inc` amounts by path. */
export interface MemoryPatch {
  readonly set: AnyRecord;
  readonly inc: ReadonlyMap<string, number>;
}

/**
 * Checks patch data by the rules every store shares (`checkPatchData`), then what the memory
 * adapter can apply: `$set` and `$inc`, the latter with finite numbers, on top-level or dotted paths.
 */
export function compileMemoryPatch(data: AnyRecord, idField: string, allowedOperators: readonly string[]): MemoryPatch {
  const { set, operators } = checkPatchData(data, { protectedFields: [idField], allowedOperators });
  const inc = new Map<string, number>();
  for (const [operator, fields] of Object.entries(operators)) {
    if (operator !== '$inc') throw new BadRequest(`Update operator ${operator} is not allowed`);
    for (const [path, operand] of Object.entries(fields)) {
      if (typeof operand !== 'number' || !Number.isFinite(operand)) throw new BadRequest(`$inc needs a number for '${path}'`);
      inc.set(path, operand);
    }
  }
  return { set, inc };
}

/** A new record with the patch applied; throws 400 (changing nothing) when `$inc` meets a non-number. */
export function applyMemoryPatch<T extends AnyRecord>(record: T, patch: MemoryPatch, idField: string): T {
  const next: AnyRecord = { ...record, ...cloneRecord(patch.set) };
  for (const [path, amount] of patch.inc) {
    const parts = path.split('.');
    const last = parts.pop()!;
    let parent: AnyRecord = next;
    for (const part of parts) {
      const child = parent[part];
      if (child === undefined || child === null) parent[part] = {};
      else if (typeof child !== 'object' || Array.isArray(child)) throw new BadRequest(`Cannot apply $inc below the non-object '${part}'`);
      else parent[part] = { ...child };
      parent = parent[part];
    }
    const current = parent[last] ?? 0;
    if (typeof current !== 'number') throw new BadRequest(`Cannot apply $inc to the non-numeric field '${path}'`);
    parent[last] = current + amount;
  }
  next[idField] = record[idField];
  return next as T;
}
