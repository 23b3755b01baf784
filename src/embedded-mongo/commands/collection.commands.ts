import type { Document } from 'bson';
import { compileFilter } from '../query/match';
import { parseCreateOptions } from './collection-options';
import { collectionName, optionalDocument } from './command-args';
import type { CommandHandler } from './command-context';
import { CommandError } from '../base/command-error';
import { cursorReply } from './cursor-reply';

/** Options `create` may carry besides the name and generic command fields. */
const GENERIC_FIELDS = new Set([
  'create',
  '$db',
  'lsid',
  'txnNumber',
  '$clusterTime',
  'writeConcern',
  'comment',
  '$readPreference',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
]);

export const createCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, 'create');
  const options: Document = {};
  for (const [key, value] of Object.entries(command)) if (!GENERIC_FIELDS.has(key)) options[key] = value;
  context.catalog.createCollection(context.db, name, parseCreateOptions('create', options));
  return { ok: 1 };
};

export const dropCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, 'drop');
  const store = context.catalog.getCollection(context.db, name);
  if (!store) throw new CommandError('NamespaceNotFound', 'ns not found');
  const nIndexesWas = store.indexes().length;
  context.catalog.dropCollection(context.db, name);
  return { nIndexesWas, ns: store.namespace, ok: 1 };
};

export const listCollectionsCommand: CommandHandler = (command, context) => {
  const matches = compileFilter(optionalDocument(command, 'filter'));
  const nameOnly = command.nameOnly === true;
  const entries: Document[] = [];
  for (const name of context.catalog.collectionNames(context.db)) {
    const store = context.catalog.getCollection(context.db, name)!;
    const type = store.options.timeseries !== undefined ? 'timeseries' : 'collection';
    const entry: Document = nameOnly
      ? { name, type }
      : {
          name,
          type,
          options: store.options,
          info: { readOnly: false },
          ...(type === 'collection' ? { idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } } : {}),
        };
    if (matches(entry)) entries.push(entry);
  }
  const namespace = `${context.db}.$cmd.listCollections`;
  const cursorOptions = optionalDocument(command, 'cursor') ?? {};
  const batchSize = typeof cursorOptions.batchSize === 'number' ? cursorOptions.batchSize : undefined;
  const { id, batch } = context.cursors.open(namespace, entries, { batchSize });
  return cursorReply(id, namespace, batch, 'firstBatch');
};
