import { MongoClient, type Db } from 'mongodb';
import { startEmbeddedMongo } from '../../src/embedded-mongo';

/** A connected client for a test file: the embedded server, or a real MongoDB when MONGODB_URL is set. */
export interface MongoTestServer {
  readonly url: string;
  readonly client: MongoClient;
  /** True when the tests run against MONGODB_URL (a real MongoDB). */
  readonly real: boolean;
  /** A database with a name no other test (or test run) uses; dropped on `close()` when on a real server. */
  db(): Db;
  /** A collection name unique within this server, for "a fresh empty collection". */
  uniqueName(prefix?: string): string;
  close(): Promise<void>;
}

let sequence = 0;

/**
 * Starts the embedded server on 127.0.0.1 with a free port (or uses MONGODB_URL), connects the
 * official driver, and returns a cleanup that drops what it made, closes the client and stops
 * the server. Call it in `beforeAll` and `close()` in `afterAll`.
 */
export async function startMongoTestServer(): Promise<MongoTestServer> {
  const realUrl = process.env.MONGODB_URL;
  const embedded = realUrl ? undefined : await startEmbeddedMongo({ host: '127.0.0.1', port: 0 });
  const url = realUrl ?? embedded!.url;
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  const run = `${process.pid}_${Date.now().toString(36)}_${sequence++}`;
  const dbName = `test_${run}`;
  let names = 0;
  return {
    url,
    client,
    real: realUrl !== undefined,
    db: () => client.db(dbName),
    uniqueName: (prefix = 'c') => `${prefix}_${names++}`,
    close: async () => {
      try {
        if (realUrl) await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
        await embedded?.stop();
      }
    },
  };
}

/** The server's URL with `database` as its default database (what an application's MONGODB_URL names). */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
