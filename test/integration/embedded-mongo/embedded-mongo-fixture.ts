import { MongoClient, MongoServerError, type Db, type MongoClientOptions } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo, type EmbeddedMongoOptions } from '../../../src/embedded-mongo';

export interface Fixture {
  server: EmbeddedMongo;
  client: MongoClient;
  db: Db;
}

/** Collects log lines so tests can assert on them and runs stay quiet. */
export function recordingLogger(): {
  lines: string[];
  info: () => void;
  warn: (m: string, meta?: unknown) => void;
  error: (m: string) => void;
} {
  const lines: string[] = [];
  return {
    lines,
    info: () => undefined,
    warn: (message, meta) => lines.push(`${message} ${JSON.stringify(meta ?? {})}`),
    error: (message) => lines.push(message),
  };
}

/** Starts a server on 127.0.0.1:0 and a driver client connected to it. */
export async function startFixture(
  options: EmbeddedMongoOptions = {},
  clientOptions: MongoClientOptions = {},
): Promise<Fixture> {
  const server = await startEmbeddedMongo({ host: '127.0.0.1', port: 0, logger: recordingLogger(), ...options });
  const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 3000, ...clientOptions });
  await client.connect();
  return { server, client, db: client.db('embedded_test') };
}

export async function stopFixture(fixture: Fixture | undefined): Promise<void> {
  await fixture?.client.close();
  await fixture?.server.stop();
}

/** The server error an operation fails with (the test fails if it succeeds or fails otherwise). */
export async function serverError(operation: Promise<unknown>): Promise<MongoServerError> {
  const error = await operation.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof MongoServerError)) throw new Error(`expected a server error, got ${String(error)}`);
  return error;
}
