import type { Collection, Document, IndexDescription } from 'mongodb';

/**
 * Creates indexes inside the `Model` promise chain, so the service's first call waits for them
 * (the seed's "Indexes" rule). `createIndexes` is idempotent for an identical spec; on an
 * existing large collection build the index as a separate operation instead.
 *
 * @example
 * // The users service with a unique email index (a duplicate becomes 409 Conflict, data.fields ['email']):
 * const users = new DatabaseService({
 *   Model: withIndexes(connectedClient.then((client) => client.db('app').collection('users')), [
 *     { key: { email: 1 }, unique: true },
 *   ]),
 * });
 *
 * // The same without the helper: any async step before the collection resolves works.
 * const Model = connectedClient
 *   .then((client) => client.db('app').collection('users'))
 *   .then(async (collection) => {
 *     await collection.createIndex({ email: 1 }, { unique: true });
 *     return collection;
 *   });
 */
export async function withIndexes<T extends Document = Document>(
  collection: Promise<Collection<T>> | Collection<T>,
  indexes: IndexDescription[],
): Promise<Collection<T>> {
  const model = await collection;
  if (indexes.length > 0) await model.createIndexes(indexes);
  return model;
}
