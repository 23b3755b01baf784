import type { Document } from 'bson';
import { toCommandError } from '../base/command-error';

/**
 * Runs the statements of a write command, collecting failures as `writeErrors` entries
 * (`{ index, code, errmsg, ...keyPattern/keyValue }`). Ordered writes stop at the first failure.
 */
export function runWriteStatements<T>(statements: readonly T[], ordered: boolean, run: (statement: T, index: number) => void): Document[] {
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

/** Adds `writeErrors` to a write reply only when there are some, as mongod does. */
export function writeReply(fields: Document, writeErrors: Document[]): Document {
  return writeErrors.length > 0 ? { ...fields, writeErrors, ok: 1 } : { ...fields, ok: 1 };
}
