import type { Document } from 'bson';

/**
 * Every value a dotted path reaches, descending into arrays the way MongoDB indexes do
 * (`tags` on `{tags: ['a','b']}` yields 'a' and 'b'). A missing path yields `[undefined]`.
 */
export function pathValues(doc: Document, path: string): unknown[] {
  const out: unknown[] = [];
  collect(doc, path.split('.'), 0, out);
  return out.length > 0 ? out : [undefined];
}

function collect(value: unknown, parts: string[], depth: number, out: unknown[]): void {
  if (depth === parts.length) {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push(undefined);
      else out.push(...value);
    } else {
      out.push(value);
    }
    return;
  }
  if (Array.isArray(value)) {
    const index = Number(parts[depth]);
    if (Number.isInteger(index) && String(index) === parts[depth]) {
      collect(value[index], parts, depth + 1, out);
      return;
    }
    for (const element of value) {
      if (element !== null && typeof element === 'object') collect(element, parts, depth, out);
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  collect((value as Document)[parts[depth]], parts, depth + 1, out);
}

/** The first value on a plain dotted path, without array expansion (for error messages and seeds). */
export function getPath(doc: Document, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Document)[part];
  }
  return value;
}
