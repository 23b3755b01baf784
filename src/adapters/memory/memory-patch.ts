import { FORBIDDEN_KEYS } from '../../application/query/query-limits';
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
 * Checks patch data the way `DatabaseService` does: plain keys are assigned; a `$` key is an
 * update operator and must be listed in `allowedOperators` (else 400); the id field is never
 * changed, by any operator. `$inc` takes finite numbers, on top-level or dotted paths.
 */
export function compileMemoryPatch(data: AnyRecord, idField: string, allowedOperators: readonly string[]): MemoryPatch {
  const allowed = new Set(allowedOperators);
  const isProtected = (path: string) => path === idField || path.startsWith(`${idField}.`);
  const set: AnyRecord = {};
  const explicitSet: AnyRecord = {};
  const inc = new Map<string, number>();
  for (const [key, value] of Object.entries(data)) {
    if (!key.startsWith('$')) {
      assertPath(key, 'the data');
      set[key] = value;
      continue;
    }
    if (!allowed.has(key) || !MEMORY_UPDATE_OPERATORS.includes(key)) throw new BadRequest(`Update operator ${key} is not allowed`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequest(`${key} needs an object of fields`);
    for (const [path, operand] of Object.entries(value as AnyRecord)) {
      assertPath(path, key);
      if (isProtected(path)) continue;
      if (key === '$set') explicitSet[path] = operand;
      else if (typeof operand !== 'number' || !Number.isFinite(operand)) throw new BadRequest(`$inc needs a number for '${path}'`);
      else inc.set(path, operand);
    }
  }
  // Plain keys win over the same field in an explicit `$set`, as in DatabaseService.
  return { set: { ...explicitSet, ...set }, inc };
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

function assertPath(path: string, operator: string): void {
  const parts = path.split('.');
  if (path.startsWith('$') || parts.some((part) => part === '' || FORBIDDEN_KEYS.has(part))) throw new BadRequest(`Invalid field name '${path}' in ${operator}`);
}
