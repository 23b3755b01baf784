import { findDocuments } from '../query/find-documents';
import { collectionName, optionalArray } from './command-args';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { assertKnownStatementFields, parseWriteStatement } from './write-statement';
import { runWriteStatements, writeReply } from './write-errors';

/** `delete`: each statement removes one (`limit: 1`) or all matching documents. */
export const deleteCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, 'delete');
  const deletes = optionalArray(command, 'deletes');
  if (!deletes) throw new CommandError('Location40414', "BSON field 'delete.deletes' is missing but a required field");
  assertKnownStatementFields(deletes, 'delete');
  const defaultCollation = context.catalog.getCollection(context.db, name)?.options.collation;
  let n = 0;
  const writeErrors = runWriteStatements(deletes, command.ordered !== false, (raw) => {
    const statement = parseWriteStatement(raw, 'delete', command.let, defaultCollation);
    const store = context.catalog.getCollection(context.db, name);
    // A missing collection finds nothing, after its filter is validated as mongod does.
    const matches = findDocuments(store, {
      filter: statement.filter,
      collation: statement.collation,
      variables: statement.variables,
      limit: statement.multi ? 0 : 1,
    });
    if (store) for (const doc of matches) store.delete(doc);
    n += matches.length;
  });
  return writeReply({ n }, writeErrors);
};
