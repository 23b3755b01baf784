import type { Document } from 'bson';
import { findDocuments } from '../query/find-documents';
import { applyUpdate, isOperatorUpdate } from '../update/apply-update';
import { buildUpsert } from '../update/build-upsert';
import { collectionName, optionalArray } from './command-args';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { assertKnownStatementFields, parseWriteStatement } from './write-statement';
import { runWriteStatements, writeReply } from './write-errors';
import { checkWrite } from '../validation/write-checks';
import { writeCheckSettings } from './write-check-settings';

/** `update`: operator, replacement and pipeline updates, upserts; `n` counts matched + upserted. */
export const updateCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, 'update');
  const updates = optionalArray(command, 'updates');
  if (!updates) throw new CommandError('Location40414', "BSON field 'update.updates' is missing but a required field");
  assertKnownStatementFields(updates, 'update');
  const settings = writeCheckSettings(command, context);
  const defaultCollation = context.catalog.getCollection(context.db, name)?.options.collation;
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const writeErrors = runWriteStatements(updates, command.ordered !== false, (raw, index) => {
    const statement = parseWriteStatement(raw, 'update', command.let, defaultCollation);
    const isReplacement = !Array.isArray(statement.update) && !isOperatorUpdate(statement.update);
    if (statement.multi && isReplacement) {
      throw new CommandError('FailedToParse', 'multi update is not supported for replacement-style update');
    }
    const store = context.catalog.getCollection(context.db, name);
    const matches = findDocuments(store, {
      filter: statement.filter,
      collation: statement.collation,
      variables: statement.variables,
      limit: statement.multi ? 0 : 1,
    });
    if (matches.length === 0) {
      if (!statement.upsert) return;
      const doc = buildUpsert(statement);
      const target = context.catalog.ensureCollection(context.db, name).store;
      checkWrite(target, doc, undefined, settings);
      target.insert(doc);
      upserted.push({ index, _id: doc._id });
      n++;
      return;
    }
    for (const doc of matches) {
      const outcome = applyUpdate(doc, statement.update, {
        filter: statement.filter,
        arrayFilters: statement.arrayFilters,
        variables: statement.variables,
        inserting: false,
      });
      n++;
      if (!outcome.modified) continue;
      checkWrite(store!, outcome.doc, doc, settings);
      store!.replace(doc, outcome.doc, isReplacement);
      nModified++;
    }
  });
  return writeReply({ n, nModified, ...(upserted.length > 0 ? { upserted } : {}) }, writeErrors);
};
