import { BSON, type Document } from 'bson';
import { CommandError } from '../base/command-error';
import type { EmbeddedMongoLogger } from '../base/logger';
import { parseCollation } from '../query/collation';
import { MAX_BSON_OBJECT_SIZE } from '../wire/wire-constants';
import { compileValidator, type ValidatorCheck } from './collection-validator';

/** What a write command knows besides the documents: the collection's options and the command's flags. */
export interface WriteTarget {
  readonly namespace: string;
  readonly options: Document;
}

export interface WriteCheckSettings {
  readonly bypassDocumentValidation: boolean;
  readonly logger: EmbeddedMongoLogger;
}

/** Compiled validators, per validator document (collMod installs a new one). */
const compiled = new WeakMap<Document, ValidatorCheck>();

/**
 * Every rule a document must pass before it is stored, as mongod applies them: the 16 MiB BSON
 * limit, a timeseries collection's `timeField`, then the collection validator under its
 * `validationLevel` (`moderate` skips updates of documents that already failed) and
 * `validationAction` (`warn` stores and logs). `previous` is the document an update replaces.
 */
export function checkWrite(
  target: WriteTarget,
  next: Document,
  previous: Document | undefined,
  settings: WriteCheckSettings,
): void {
  assertBsonSize(next, previous === undefined);
  const timeseries = target.options.timeseries as Document | undefined;
  if (timeseries && previous === undefined && !(next[timeseries.timeField as string] instanceof Date)) {
    throw new CommandError(
      'BadValue',
      `'${String(timeseries.timeField)}' must be present and contain a valid BSON UTC datetime value`,
    );
  }
  const validator = target.options.validator as Document | undefined;
  if (!validator || settings.bypassDocumentValidation || target.options.validationLevel === 'off') return;
  const check = validatorOf(validator, target.options);
  const details = check(next);
  if (!details) return;
  if (previous !== undefined && target.options.validationLevel === 'moderate' && check(previous) !== undefined) return;
  const errInfo = { failingDocumentId: next._id, details };
  if (target.options.validationAction === 'warn') {
    settings.logger.warn('Document would fail validation', {
      namespace: target.namespace,
      document: { _id: next._id },
      errInfo,
    });
    return;
  }
  throw new CommandError('DocumentValidationFailure', 'Document failed validation', { errInfo });
}

/** Compiles the validator of a collection's options; throws mongod's parse error for a bad one. */
export function validatorOf(validator: Document, options: Document): ValidatorCheck {
  let check = compiled.get(validator);
  if (!check) {
    check = compileValidator(validator, parseCollation(options.collation));
    compiled.set(validator, check);
  }
  return check;
}

/** mongod refuses documents over 16 MiB: code 10334 on insert, 17419 for an update's result. */
function assertBsonSize(doc: Document, inserting: boolean): void {
  const size = BSON.calculateObjectSize(doc);
  if (size <= MAX_BSON_OBJECT_SIZE) return;
  if (inserting)
    throw new CommandError(
      'BSONObjectTooLarge',
      `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_SIZE}`,
    );
  throw new CommandError('Location17419', `Resulting document after update is larger than ${MAX_BSON_OBJECT_SIZE}`);
}
