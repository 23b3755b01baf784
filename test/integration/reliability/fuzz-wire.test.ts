import fc from 'fast-check';
import { MongoClient } from 'mongodb';
import { killChildren } from '../../helpers/child-process';
import { startEmbeddedMongoChild, type EmbeddedMongoChild } from '../../helpers/embedded-mongo-child';
import { freePort } from '../../helpers/free-port';
import { checkReplies, exchange, wireInput } from '../../helpers/wire-fuzz-cases';

/**
 * Random and garbled wire-protocol input against the embedded server (in its own process):
 * every reply is a well-formed frame, a broken frame closes only its own connection, and the
 * server still answers the official driver's ping afterwards.
 */
describe('fuzzing the embedded server socket', () => {
  let server: EmbeddedMongoChild;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    server = await startEmbeddedMongoChild(port, ':memory:');
  }, 30_000);
  afterAll(killChildren);

  it(
    'survives 1000 random, garbled and lying frames, answering ' + 'each well-formed or closing the connection',
    async () => {
      await fc.assert(
        fc.asyncProperty(wireInput, async (input) => {
          checkReplies(await exchange(port, input));
        }),
        { numRuns: 1000, interruptAfterTimeLimit: 40_000, markInterruptAsFailure: false },
      );
      expect(server.child.running).toBe(true);
      const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 5000 });
      try {
        await expect(client.db('admin').command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
        await client.db('fuzz').collection('after').insertOne({ still: 'working' });
        await expect(client.db('fuzz').collection('after').countDocuments()).resolves.toBe(1);
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});
