import type { Document } from 'bson';
import { setOwnField } from './own-field';

const LOGICAL = new Set(['$and', '$or', '$nor']);
const MAX_DEPTH = 64;

/**
 * Rewrites `{ f: { $all: [v1, v2] } }` into `{ $and: [{ f: v1 }, { f: v2 }] }`, which is what
 * mongod defines `$all` to be: a scalar field equal to the single value matches (`{ tags: 'a' }`
 * for `$all: ['a']`), where mingo requires an array. `$all: []` matches nothing. Returns the
 * filter itself when it holds no `$all`.
 */
export function rewriteAllOperators(filter: Document): Document {
  let rewritten = false;
  const rewrite = (value: Document, depth: number): Document => {
    if (depth > MAX_DEPTH) return value;
    const out: Document = {};
    const conjuncts: Document[] = [];
    for (const [key, item] of Object.entries(value)) {
      if (LOGICAL.has(key) && Array.isArray(item))
        setOwnField(
          out,
          key,
          item.map((branch) => (isPlainObject(branch) ? rewrite(branch, depth + 1) : branch)),
        );
      else if (!key.startsWith('$') && isPlainObject(item) && Array.isArray(item.$all)) {
        rewritten = true;
        const { $all: values, ...others } = item;
        if (Object.keys(others).length > 0) conjuncts.push({ [key]: others });
        if (values.length === 0) conjuncts.push({ [key]: { $in: [] } });
        for (const element of values as unknown[]) conjuncts.push({ [key]: element });
      } else setOwnField(out, key, item);
    }
    if (conjuncts.length > 0) out.$and = [...((out.$and as Document[] | undefined) ?? []), ...conjuncts];
    return out;
  };
  const result = rewrite(filter, 0);
  return rewritten ? result : filter;
}

function isPlainObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && value.constructor === Object;
}
