import type { Document } from 'bson';
import { evaluateLet } from '../query/evaluate-let';
import { findDocuments } from '../query/find-documents';
import { asFilter } from '../query/match';
import { projectDocuments } from '../query/projection';
import { parseSort } from '../query/sort-documents';
import { applyUpdate, isOperatorUpdate } from '../update/apply-update';
import { buildUpsert } from '../update/build-upsert';
import { collectionName, optionalArray } from './command-args';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { checkWrite } from '../validation/write-checks';
import { commandCollation } from './command-collation';
import { writeCheckSettings } from './write-check-settings';

/**
 * `findAndModify` (findOneAndUpdate / Replace / Delete). Errors, duplicate keys included,
 * are top-level command errors here rather than writeErrors.
 */
export const findAndModifyCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, command.findAndModify !== undefined ? 'findAndModify' : 'findandmodify');
  const remove = command.remove === true;
  if (remove && command.update !== undefined)
    throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
  if (!remove && command.update === undefined)
    throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
  if (remove && command.upsert === true)
    throw new CommandError('FailedToParse', 'Cannot specify both upsert=true and remove=true');
  const filter = asFilter(command.query);
  const collation = commandCollation(command.collation, context, name);
  const settings = writeCheckSettings(command, context);
  const variables = evaluateLet(command.let);
  const arrayFilters = optionalArray(command, 'arrayFilters') as Document[] | undefined;
  const store = context.catalog.getCollection(context.db, name);
  const [found] = findDocuments(store, { filter, sort: parseSort(command.sort), limit: 1, collation, variables });
  const project = (doc: Document | undefined): Document | null =>
    doc ? projectDocuments([doc], command.fields, filter, { collation, variables })[0] : null;

  if (remove) {
    if (found) store!.delete(found);
    return { lastErrorObject: { n: found ? 1 : 0 }, value: project(found), ok: 1 };
  }
  if (found) {
    const outcome = applyUpdate(found, command.update, { filter, arrayFilters, variables, inserting: false });
    if (outcome.modified) {
      checkWrite(store!, outcome.doc, found, settings);
      store!.replace(found, outcome.doc, !Array.isArray(command.update) && !isOperatorUpdate(command.update));
    }
    return {
      lastErrorObject: { n: 1, updatedExisting: true },
      value: project(command.new === true ? outcome.doc : found),
      ok: 1,
    };
  }
  if (command.upsert !== true) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
  const inserted = buildUpsert({ filter, arrayFilters, variables, update: command.update });
  const target = context.catalog.ensureCollection(context.db, name).store;
  checkWrite(target, inserted, undefined, settings);
  target.insert(inserted);
  return {
    lastErrorObject: { n: 1, updatedExisting: false, upserted: inserted._id },
    value: command.new === true ? project(inserted) : null,
    ok: 1,
  };
};
