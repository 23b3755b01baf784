import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { elementMatcher } from '../query/element-matcher';
import { ownField, setOwnField } from '../query/own-field';

/**
 * Takes out of the modifier the `$pull` fields whose condition is a document, and returns them.
 * mongod reads such a condition as a query on each element (see element-matcher.ts); mingo's `$pull`
 * removes nothing for `$or` / `$and` conditions, which `MongooseArray#pull()` sends for subdocuments
 * without `_id`.
 */
export function takeDocumentPulls(modifier: Document): Array<[string, Document]> {
  const fields = modifier.$pull as Document | undefined;
  if (!fields) return [];
  const pulls: Array<[string, Document]> = [];
  const rest: Document = {};
  for (const [path, condition] of Object.entries(fields)) {
    if (condition !== null && typeof condition === 'object' && condition.constructor === Object)
      pulls.push([path, condition as Document]);
    else setOwnField(rest, path, condition);
  }
  if (Object.keys(rest).length > 0) modifier.$pull = rest;
  else delete modifier.$pull;
  return pulls;
}

/** Removes, in place, the elements each condition matches; a missing field is left alone. */
export function applyDocumentPulls(doc: Document, pulls: Array<[string, Document]>): void {
  for (const [path, condition] of pulls) {
    const parts = path.split('.');
    let holder: unknown = doc;
    for (const part of parts.slice(0, -1))
      holder = holder !== null && typeof holder === 'object' ? ownField(holder, part) : undefined;
    if (holder === null || typeof holder !== 'object') continue;
    const field = parts[parts.length - 1];
    const array = ownField(holder, field);
    if (array === undefined) continue;
    if (!Array.isArray(array)) throw new CommandError('BadValue', 'Cannot apply $pull to a non-array value');
    const matches = elementMatcher(condition);
    setOwnField(
      holder,
      field,
      array.filter((element) => !matches(element)),
    );
  }
}
