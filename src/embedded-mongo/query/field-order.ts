import type { Document } from 'bson';
import { isBsonNumber, numberValue } from './bson-numbers';
import { idFirst } from './id-first';
import { setOwnField } from './own-field';

/** A projection's paths as a tree, marking the fields it computes rather than copies. */
interface SpecNode {
  readonly children: Map<string, SpecNode>;
  computed: boolean;
}

export type FieldOrder = (projected: Document, input: Document) => Document;

/**
 * Puts a projected document's fields in mongod's order (mingo emits them sorted by name): copied
 * fields keep the input document's order, at every depth; in an inclusion projection the fields
 * it computes (expressions, literals, `$elemMatch`, `$slice`, positional `$`) follow them in the
 * projection's order; `_id` comes first. An exclusion projection keeps the input order as it is.
 * A document already in that order is returned as is.
 */
export function fieldOrder(projection: Document): FieldOrder {
  const tree = specTree(projection);
  // mingo's exclusion copies the document and deletes fields: the order is already the stored one.
  if (!isInclusive(projection)) return (projected) => idFirst(projected);
  return (projected, input) => idFirst(reorder(projected, input, tree));
}

function reorder(out: Document, input: Document, node: SpecNode): Document {
  const current = Object.keys(out);
  const keys: string[] = [];
  for (const key of Object.keys(input))
    if (Object.hasOwn(out, key) && !node.children.get(key)?.computed) keys.push(key);
  for (const [key, child] of node.children)
    if (child.computed && Object.hasOwn(out, key) && !keys.includes(key)) keys.push(key);
  if (keys.length < current.length) for (const key of current) if (!keys.includes(key)) keys.push(key);
  let changed = false;
  const values = keys.map((key, i) => {
    if (key !== current[i]) changed = true;
    const child = node.children.get(key);
    // Only paths the projection descends into were rebuilt by mingo; whole included values are as stored.
    if (!child || child.children.size === 0 || !Object.hasOwn(input, key)) return out[key];
    const value = descend(out[key], input[key], child);
    if (value !== out[key]) changed = true;
    return value;
  });
  if (!changed) return out;
  const ordered: Document = {};
  keys.forEach((key, i) => setOwnField(ordered, key, values[i]));
  return ordered;
}

function descend(out: unknown, input: unknown, node: SpecNode): unknown {
  if (isPlainObject(out) && isPlainObject(input)) return reorder(out, input, node);
  if (!Array.isArray(out) || !Array.isArray(input)) return out;
  // An inclusion drops the scalars of an array of sub-documents: pair what is left.
  const inputs =
    input.length === out.length ? input : input.filter((item) => isPlainObject(item) || Array.isArray(item));
  if (inputs.length !== out.length) return out;
  let changed = false;
  const items = out.map((item, i) => {
    const ordered = descend(item, inputs[i], node);
    if (ordered !== item) changed = true;
    return ordered;
  });
  return changed ? items : out;
}

function specTree(projection: Document): SpecNode {
  const root: SpecNode = { children: new Map(), computed: false };
  const add = (at: SpecNode, spec: Document) => {
    for (const [path, value] of Object.entries(spec)) {
      const positional = path.endsWith('.$');
      let node = at;
      for (const part of (positional ? path.slice(0, -2) : path).split('.')) {
        let child = node.children.get(part);
        if (!child) node.children.set(part, (child = { children: new Map(), computed: false }));
        node = child;
      }
      if (isNestedProjection(value)) add(node, value);
      else node.computed = positional || isComputed(value);
    }
  };
  add(root, projection);
  return root;
}

/** Anything but an inclusion or exclusion flag computes the field. */
function isComputed(value: unknown): boolean {
  return typeof value !== 'number' && typeof value !== 'boolean' && !isBsonNumber(value);
}

/** `{ a: { b: 1 } }` in `$project` means `{ 'a.b': 1 }`; an object whose keys are operators is an expression. */
function isNestedProjection(value: unknown): value is Document {
  return isPlainObject(value) && Object.keys(value).length > 0 && !Object.keys(value)[0].startsWith('$');
}

/** Some field other than `_id` is included or computed (`$slice` alone leaves an exclusion projection). */
function isInclusive(projection: Document): boolean {
  return Object.entries(projection).some(([path, value]) => {
    if (path === '_id') return false;
    if (isNestedProjection(value)) return isInclusive(value);
    if (typeof value === 'number' || isBsonNumber(value)) return numberValue(value) !== 0;
    if (typeof value === 'boolean') return value;
    return !(isPlainObject(value) && '$slice' in value);
  });
}

function isPlainObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && value.constructor === Object;
}
