import { collectionName, optionalArray } from './command-args';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { runWriteStatements, writeReply } from './write-errors';
import { prepareForStorage } from '../update/validate-document';
import { checkWrite } from '../validation/write-checks';
import { writeCheckSettings } from './write-check-settings';

/** `insert`: documents arrive in the body or as a kind-1 sequence (already merged by the wire layer). */
export const insertCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, 'insert');
  const documents = optionalArray(command, 'documents');
  if (!documents)
    throw new CommandError('Location40414', "BSON field 'insert.documents' is missing but a required field");
  const { store } = context.catalog.ensureCollection(context.db, name);
  const settings = writeCheckSettings(command, context);
  let n = 0;
  const writeErrors = runWriteStatements(documents, command.ordered !== false, (raw) => {
    const doc = prepareForStorage(raw);
    checkWrite(store, doc, undefined, settings);
    store.insert(doc);
    n++;
  });
  return writeReply({ n }, writeErrors);
};
