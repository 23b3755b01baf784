import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { setOwnField } from '../query/own-field';

/**
 * Takes out of the modifier the top-level `$`-prefixed fields it names (`{ $set: { $hotel: 1 } }`).
 * mongod stores them only when the update inserts (an upsert is validated as an insert): those
 * `$set` fields are returned for the caller to set. On an existing document it refuses any of
 * them, as it refuses them in a replacement (nested ones, like `address.$street`, are fine).
 */
export function takeTopLevelDollarFields(modifier: Document, inserting: boolean): Array<[string, unknown]> {
  const taken: Array<[string, unknown]> = [];
  for (const operator in modifier) {
    const fields = modifier[operator] as Document;
    if (!hasDollarPrefixedPath(fields)) continue;
    const paths = Object.keys(fields);
    const rest: Document = {};
    for (const path of paths) {
      const value = fields[path];
      if (!path.startsWith('$')) setOwnField(rest, path, value);
      else if (inserting && operator === '$set' && !path.includes('.')) taken.push([path, value]);
      else {
        throw new CommandError(
          'DollarPrefixedFieldName',
          `The dollar ($) prefixed field '${path.split('.')[0]}' in '${path}' is not allowed in the context of an ` +
            `update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
        );
      }
    }
    // The modifier's field documents belong to the command: replaced, never changed.
    if (Object.keys(rest).length > 0) modifier[operator] = rest;
    else delete modifier[operator];
  }
  return taken;
}

function hasDollarPrefixedPath(fields: Document): boolean {
  for (const path in fields) if (path.charCodeAt(0) === DOLLAR) return true;
  return false;
}

const DOLLAR = 36;
