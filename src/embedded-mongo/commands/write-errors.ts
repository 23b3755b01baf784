import type { Document } from 'bson';
import { toCommandError } from '../base/command-error';

/**
 * Runs the statements of a write command, collecting failures as `writeErrors` entries
 * (`{ index, code, errmsg, ...keyPattern/keyValue }`). Ordered writes stop at the first failure.
 */
export function runWriteStatements<T>(
  statements: readonly T[],
  ordered: boolean,
  run: (statement: T, index: number) => void,
): Document[] {
  const writeErrors: Document[] = [];
  for (let index = 0; index < statements.length; index++) {
    try {
      run(statements[index], index);
    } catch (thrown) {
      const error = toCommandError(thrown);
      writeErrors.push({ index, code: error.code, codeName: error.codeName, errmsg: error.message, ...error.extra });
      if (ordered) break;
    }
  }
  return writeErrors;
}

/**
 * Completes a write reply (the caller's own new object): `writeErrors` only when there are some, as
 * mongod does, then `ok`. Added to it rather than spread into a copy, whose hidden class would be
 * new on every reply and miss the BSON encoder's inline caches.
 */
export function writeReply(fields: Document, writeErrors: Document[]): Document {
  if (writeErrors.length > 0) fields.writeErrors = writeErrors;
  fields.ok = 1;
  return fields;
}
