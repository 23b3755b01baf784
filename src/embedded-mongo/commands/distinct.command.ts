import { stringFoldFor } from '../query/collation';
import { matchView } from '../query/match-view';
import { findStream } from '../query/find-documents';
import { documentsOf } from '../query/result-stream';
import { readSource } from '../query/run-pipeline';
import { pathValues } from '../storage/path-values';
import { valueKey } from '../storage/value-key';
import { collectionName, optionalDocument } from './command-args';
import { commandCollation } from './command-collation';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';

/** `distinct`: array fields contribute their elements; under a folding collation 'A' and 'a' are one value. */
export const distinctCommand: CommandHandler = (command, context) => {
  const store = readSource(context.catalog, context.db, collectionName(command, 'distinct'));
  if (typeof command.key !== 'string')
    throw new CommandError('TypeMismatch', "BSON field 'distinct.key' must be a string");
  const collation = commandCollation(command.collation, context, collectionName(command, 'distinct'));
  // Read piece by piece: only the distinct values are kept, never the matching documents.
  const docs = documentsOf(
    findStream(store, { filter: optionalDocument(command, 'query'), collation, hint: command.hint }),
  );
  const fold = stringFoldFor(collation);
  const seen = new Set<string>();
  const values: unknown[] = [];
  for (const doc of docs) {
    for (const value of pathValues(doc, command.key)) {
      if (value === undefined) continue;
      const key = valueKey(fold ? matchView(value, fold) : value);
      if (seen.has(key)) continue;
      seen.add(key);
      values.push(value);
    }
  }
  return { values, ok: 1 };
};
