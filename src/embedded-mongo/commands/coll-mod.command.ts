import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { isBsonNumber } from '../query/bson-numbers';
import { sameKey, type IndexSpec } from '../storage/index-spec';
import type { CollectionStore } from '../storage/collection-store';
import { assertValidationSettings } from './collection-options';
import { collectionName } from './command-args';
import type { CommandHandler } from './command-context';

const GENERIC_FIELDS = new Set([
  'collMod',
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
const COLLECTION_FIELDS = [
  'validator',
  'validationLevel',
  'validationAction',
  'expireAfterSeconds',
  'changeStreamPreAndPostImages',
];

/**
 * `collMod`: changes a collection's validator, validation level and action, change stream
 * pre- and post-images (and a timeseries collection's expiry), or one index's `hidden` flag or
 * TTL. Index changes answer with the old and new values (`hidden_old`, `hidden_new`,
 * `expireAfterSeconds_old`, ...), as mongod does.
 */
export const collModCommand: CommandHandler = (command, context) => {
  const name = collectionName(command, 'collMod');
  for (const field of Object.keys(command)) {
    if (!GENERIC_FIELDS.has(field) && field !== 'index' && !COLLECTION_FIELDS.includes(field)) {
      throw new CommandError('Location40415', `BSON field 'collMod.${field}' is an unknown field.`);
    }
  }
  const store = context.catalog.getCollection(context.db, name);
  if (!store) throw new CommandError('NamespaceNotFound', `ns does not exist: ${context.db}.${name}`);
  if (command.expireAfterSeconds !== undefined && store.options.timeseries === undefined) {
    throw new CommandError(
      'InvalidOptions',
      "option not supported on a non-time-series collection: 'expireAfterSeconds'",
    );
  }
  const changed = COLLECTION_FIELDS.filter((field) => command[field] !== undefined);
  let reply: Document = {};
  if (command.index !== undefined) reply = modifyIndex(store, command.index);
  if (changed.length > 0) {
    const options: Document = { ...store.options };
    for (const field of changed) options[field] = command[field];
    const images = options.changeStreamPreAndPostImages as Document | undefined;
    if (
      images !== undefined &&
      (images === null || typeof images !== 'object' || typeof images.enabled !== 'boolean')
    ) {
      throw new CommandError(
        'TypeMismatch',
        "BSON field 'collMod.changeStreamPreAndPostImages.enabled' is missing or not a boolean",
      );
    }
    assertValidationSettings('collMod', options);
    store.modify(options);
  }
  return { ...reply, ok: 1 };
};

function modifyIndex(store: CollectionStore, raw: unknown): Document {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new CommandError('TypeMismatch', "BSON field 'collMod.index' is the wrong type, expected type 'object'");
  const request = raw as Document;
  const index = findIndex(store, request);
  if (request.hidden === undefined && request.expireAfterSeconds === undefined) {
    throw new CommandError('InvalidOptions', 'no expireAfterSeconds or hidden field');
  }
  const next: Record<string, unknown> = { ...index };
  const reply: Document = {};
  if (request.hidden !== undefined) {
    if (typeof request.hidden !== 'boolean')
      throw new CommandError(
        'TypeMismatch',
        "BSON field 'collMod.index.hidden' is the wrong type, expected type 'bool'",
      );
    if (index.name === '_id_') throw new CommandError('BadValue', "can't hide _id index");
    reply.hidden_old = index.hidden === true;
    reply.hidden_new = request.hidden;
    if (request.hidden) next.hidden = true;
    else delete next.hidden;
  }
  if (request.expireAfterSeconds !== undefined) {
    if (!isBsonNumber(request.expireAfterSeconds))
      throw new CommandError(
        'TypeMismatch',
        "BSON field 'collMod.index.expireAfterSeconds' is the wrong type, expected a number",
      );
    if (index.expireAfterSeconds === undefined)
      throw new CommandError('InvalidOptions', 'no expireAfterSeconds field to update');
    reply.expireAfterSeconds_old = index.expireAfterSeconds;
    reply.expireAfterSeconds_new = request.expireAfterSeconds;
    next.expireAfterSeconds = request.expireAfterSeconds;
  }
  const changed =
    reply.hidden_old !== reply.hidden_new || reply.expireAfterSeconds_old !== reply.expireAfterSeconds_new;
  if (changed) store.modifyIndex(next as IndexSpec);
  return reply;
}

/** The index named by `name` or `keyPattern`, as mongod looks it up. */
function findIndex(store: CollectionStore, request: Document): IndexSpec {
  const byName = typeof request.name === 'string';
  const byKey = request.keyPattern !== null && typeof request.keyPattern === 'object';
  if (byName === byKey) throw new CommandError('InvalidOptions', 'must specify either index name or key pattern');
  const found = store
    .indexes()
    .find((spec) => (byName ? spec.name === request.name : sameKey(spec.key, request.keyPattern as Document)));
  if (!found) {
    const label = byName ? String(request.name) : JSON.stringify(request.keyPattern);
    throw new CommandError('IndexNotFound', `cannot find index ${label} for ns ${store.namespace}`);
  }
  return found;
}
