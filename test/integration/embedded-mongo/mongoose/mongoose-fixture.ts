import mongoose, { type Connection } from 'mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../../src/embedded-mongo';
import { recordingLogger } from '../embedded-mongo-fixture';

export interface MongooseFixture {
  server: EmbeddedMongo;
  connection: Connection;
}

/** An embedded server on 127.0.0.1:0 and a Mongoose connection of its own (not the global one) to a fresh database. */
export async function startMongoose(dbName: string): Promise<MongooseFixture> {
  const server = await startEmbeddedMongo({ host: '127.0.0.1', port: 0, logger: recordingLogger() });
  const connection = await mongoose
    .createConnection(server.url, { dbName, serverSelectionTimeoutMS: 3000, autoIndex: true })
    .asPromise();
  return { server, connection };
}

export async function stopMongoose(fixture: MongooseFixture | undefined): Promise<void> {
  await fixture?.connection.close();
  await fixture?.server.stop();
}
