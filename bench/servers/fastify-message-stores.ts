/**
 * Where the Fastify baseline keeps its messages, written as a Fastify user would: an in-memory
 * array (the bare Express baseline's store), or a collection on the embedded server through the
 * official driver (what DatabaseService does for the same three requests: `findOne` by `_id`, a
 * page of `find` with its `countDocuments` in parallel, `insertOne`).
 */
import type { Collection, Document } from 'mongodb';
import { startEmbeddedMongo } from '../../src/embedded-mongo';
import { SEEDED_MESSAGES, seedMessage } from './server-protocol';

export interface NewMessage {
  text: string;
  userId: number;
}

export interface Page {
  total: number;
  limit: number;
  skip: number;
  data: unknown[];
}

export interface MessageStore {
  /** An id that `get` finds. */
  sampleId: string;
  /** JSON schema of the `:id` route parameter (Fastify validates and coerces it). */
  idSchema: Record<string, unknown>;
  get(id: string | number): unknown | Promise<unknown>;
  page(limit: number, skip: number): Page | Promise<Page>;
  create(data: NewMessage): unknown | Promise<unknown>;
  close(): Promise<void>;
}

/** The bare Express baseline's store: an array for pages, a Map for gets. */
export function memoryMessageStore(): MessageStore {
  const messages: Array<NewMessage & { id: number }> = [];
  const byId = new Map<number, NewMessage & { id: number }>();
  const insert = (data: NewMessage) => {
    const message = { ...data, id: messages.length };
    messages.push(message);
    byId.set(message.id, message);
    return message;
  };
  for (let i = 0; i < SEEDED_MESSAGES; i++) insert(seedMessage(i));
  return {
    sampleId: '1',
    idSchema: { type: 'integer', minimum: 0 },
    get: (id) => byId.get(id as number),
    page: (limit, skip) => ({ total: messages.length, limit, skip, data: messages.slice(skip, skip + limit) }),
    create: insert,
    close: async () => undefined,
  };
}

/**
 * The same collection the framework's database store uses, on an embedded server of its own in
 * this process (started as the framework server starts it), through the driver.
 */
export async function mongoMessageStore(): Promise<MessageStore> {
  const { MongoClient, ObjectId } = await import('mongodb');
  const mongo = await startEmbeddedMongo({ host: '127.0.0.1', port: 0 });
  const client = await MongoClient.connect(mongo.url);
  const collection: Collection<Document> = client.db('bench').collection('messages');
  const inserted = await collection.insertMany(Array.from({ length: SEEDED_MESSAGES }, (_, i) => seedMessage(i)));
  return {
    sampleId: String(inserted.insertedIds[1]),
    idSchema: { type: 'string', pattern: '^[0-9a-fA-F]{24}$' },
    get: (id) => collection.findOne({ _id: new ObjectId(String(id)) }),
    page: async (limit, skip) => {
      const [data, total] = await Promise.all([
        collection.find({}, { skip, limit }).toArray(),
        collection.countDocuments({}),
      ]);
      return { total, limit, skip, data };
    },
    create: async (data) => {
      const document: Document = { ...data };
      const { insertedId } = await collection.insertOne(document);
      return { ...document, _id: insertedId };
    },
    close: async () => {
      await client.close();
      await mongo.stop();
    },
  };
}
