import { CommandError } from '../base/command-error';
import type { CommandHandler } from './command-context';

/**
 * `renameCollection: 'db.from', to: 'db.to', dropTarget?` (run on admin): the documents and
 * indexes move to the new name, the old one goes. Done as create, copy, drop, so storage and its
 * journal need nothing new; change streams report it as one `rename` (see publish-changes.ts).
 */
export const renameCollectionCommand: CommandHandler = (command, context) => {
  if (context.db !== 'admin')
    throw new CommandError('Unauthorized', 'renameCollection may only be run against the admin database.');
  const from = parseNamespace(command.renameCollection, 'renameCollection');
  const to = parseNamespace(command.to, 'to');
  const source = context.catalog.getCollection(from.db, from.coll);
  if (!source) throw new CommandError('NamespaceNotFound', `Source collection ${from.db}.${from.coll} does not exist`);
  if (from.db === to.db && from.coll === to.coll)
    throw new CommandError('IllegalOperation', "Can't rename a collection to itself");
  if (source.options.viewOn !== undefined)
    throw new CommandError('CommandNotSupportedOnView', `cannot rename view: ${from.db}.${from.coll}`);
  if (context.catalog.getCollection(to.db, to.coll)) {
    if (command.dropTarget !== true) throw new CommandError('NamespaceExists', 'target namespace exists');
    context.catalog.dropCollection(to.db, to.coll);
  }
  const target = context.catalog.createCollection(to.db, to.coll, source.options);
  for (const doc of source.documents()) target.insert(doc);
  for (const spec of source.indexes()) if (spec.name !== '_id_') target.createIndex(spec);
  context.catalog.dropCollection(from.db, from.coll);
  return { ok: 1 };
};

/** `db.coll` as given to renameCollection: the database is up to the first dot. */
export function parseNamespace(value: unknown, field: string): { db: string; coll: string } {
  const dot = typeof value === 'string' ? value.indexOf('.') : -1;
  if (typeof value !== 'string' || dot <= 0 || dot === value.length - 1) {
    throw new CommandError('InvalidNamespace', `Invalid ${field} namespace: ${String(value)}`);
  }
  return { db: value.slice(0, dot), coll: value.slice(dot + 1) };
}
