import type { Document } from 'bson';
import { normalizeTextSpec } from '../indexes/text-spec';
import { defaultIndexName, normalizeIndexSpec, sameKey } from '../storage/index-spec';
import { collectionName, optionalArray } from './command-args';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { cursorReply } from './cursor-reply';

export const createIndexesCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, 'createIndexes');
  const requested = optionalArray(command, 'indexes') ?? [];
  const defaultCollation = context.catalog.getCollection(context.db, name)?.options.collation;
  const specs = requested.map((raw) =>
    normalizeTextSpec(normalizeIndexSpec(withDefaultCollation(raw, defaultCollation))),
  );
  if (specs.length === 0) throw new CommandError('BadValue', 'Must specify at least one index to create');
  const { store, created } = context.catalog.ensureCollection(context.db, name);
  const numIndexesBefore = store.indexes().length;
  let added = 0;
  for (const spec of specs) if (store.createIndex(spec)) added++;
  return {
    numIndexesBefore,
    numIndexesAfter: store.indexes().length,
    createdCollectionAutomatically: created,
    ...(added === 0 ? { note: 'all indexes already exist' } : {}),
    ok: 1,
  };
};

/** An index without a collation of its own takes the collection's default, as in mongod. */
function withDefaultCollation(raw: unknown, collation: unknown): unknown {
  if (collation === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw) || 'collation' in raw)
    return raw;
  return { ...raw, collation };
}

export const listIndexesCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, 'listIndexes');
  const store = context.catalog.getCollection(context.db, name);
  if (!store) throw new CommandError('NamespaceNotFound', `ns does not exist: ${context.db}.${name}`);
  const namespace = `${context.db}.$cmd.listIndexes.${name}`;
  const { id, batch } = context.cursors.open(
    namespace,
    store.indexes().map((spec) => ({ ...spec })),
  );
  return cursorReply(id, namespace, batch, 'firstBatch');
};

/** `index` may be a name, a key pattern, a list of names, or '*' for all but `_id_`. */
export const dropIndexesCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, 'dropIndexes');
  const store = context.catalog.getCollection(context.db, name);
  if (!store) throw new CommandError('NamespaceNotFound', `ns not found ${context.db}.${name}`);
  const nIndexesWas = store.indexes().length;
  const target = command.index;
  let names: string[];
  if (target === '*')
    names = store
      .indexes()
      .filter((spec) => spec.name !== '_id_')
      .map((spec) => spec.name);
  else if (typeof target === 'string') names = [target];
  else if (Array.isArray(target)) names = target.map(String);
  else if (target && typeof target === 'object') {
    const match = store.indexes().find((spec) => sameKey(spec.key, target as Document));
    if (!match)
      throw new CommandError('IndexNotFound', `can't find index with key: ${defaultIndexName(target as Document)}`);
    names = [match.name];
  } else throw new CommandError('TypeMismatch', "'index' must be a string, an array of strings or a key pattern");
  for (const indexName of names) store.dropIndex(indexName);
  return { nIndexesWas, ok: 1 };
};
