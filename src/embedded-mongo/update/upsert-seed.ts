import type { Document } from 'bson';
import { CommandError } from '../base/command-error';

/**
 * The document an upsert starts from: the query's equality conditions (`{a: 1}`, `{a: {$eq: 1}}`,
 * inside a top-level `$and`), with dotted paths expanded, as mongod builds it.
 */
export function upsertSeed(filter: Document): Document {
  const seed: Document = {};
  addEqualities(filter, seed, 0);
  return seed;
}

function addEqualities(filter: Document, seed: Document, depth: number): void {
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(condition) && depth < 32) {
      for (const clause of condition)
        if (clause && typeof clause === 'object') addEqualities(clause as Document, seed, depth + 1);
      continue;
    }
    if (field.startsWith('$')) continue;
    const value = equalityValue(condition);
    if (value.found) setPath(seed, field, value.value);
  }
}

function equalityValue(condition: unknown): { found: boolean; value?: unknown } {
  if (condition instanceof RegExp) return { found: false };
  if (
    condition === null ||
    typeof condition !== 'object' ||
    Array.isArray(condition) ||
    condition.constructor !== Object
  ) {
    return { found: true, value: condition };
  }
  const keys = Object.keys(condition);
  if (keys.length === 0 || !keys[0].startsWith('$')) return { found: true, value: condition };
  if (keys.length === 1 && keys[0] === '$eq') return { found: true, value: (condition as Document).$eq };
  return { found: false };
}

function setPath(target: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === undefined) node[part] = {};
    else if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      throw new CommandError('BadValue', `cannot infer query fields to set, path '${path}' is matched twice`);
    }
    node = node[part] as Document;
  }
  const last = parts[parts.length - 1];
  if (last in node)
    throw new CommandError('BadValue', `cannot infer query fields to set, path '${path}' is matched twice`);
  node[last] = value;
}
