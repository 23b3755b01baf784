import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/embedded-mongo';
import { recordingLogger } from './embedded-mongo-fixture';

function socketPathOf(server: EmbeddedMongo): string {
  // direct when the path has capitals
  return decodeURIComponent(/^mongodb:\/\/([^/]+)\/(\?directConnection=true)?$/.exec(server.url)![1]);
}

async function roundTrip(server: EmbeddedMongo, value: string): Promise<unknown> {
  const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 5000 });
  try {
    const collection = client.db('private').collection<{ _id: string; value: string }>('things');
    await collection.updateOne({ _id: 'one' }, { $set: { value } }, { upsert: true });
    return (await collection.findOne({ _id: 'one' }))?.value;
  } finally {
    await client.close();
  }
}

/**
 * `privateSocket`: how the application hosts the server (see reliability/embedded-database-access
 * for the process-level checks).
 */
describe('embedded mongo: private socket', () => {
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('replaces a socket left by a killed server and tightens a loose folder', async () => {
    const dataDir = tempDir('private-socket-');
    const folder = path.join(dataDir, 'embedded-mongo-socket');
    mkdirSync(folder);
    chmodSync(folder, 0o755);
    writeFileSync(path.join(folder, 'embedded-mongo.sock'), 'left behind');
    const server = await startEmbeddedMongo({ privateSocket: true, dataDir, logger: recordingLogger() });
    try {
      expect(server.port).toBeUndefined();
      expect(socketPathOf(server)).toBe(path.join(folder, 'embedded-mongo.sock'));
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      expect(statSync(socketPathOf(server)).mode & 0o777).toBe(0o600);
      expect(await roundTrip(server, 'first')).toBe('first');
    } finally {
      await server.stop();
    }
    expect(existsSync(folder)).toBe(false);
  }, 30_000);

  it('falls back to a private temporary folder when DATA_DIR is too long for a socket path', async () => {
    const dataDir = path.join(tempDir('private-socket-long-'), 'x'.repeat(120));
    const server = await startEmbeddedMongo({ privateSocket: true, dataDir, logger: recordingLogger() });
    const socketPath = socketPathOf(server);
    try {
      expect(Buffer.byteLength(socketPath)).toBeLessThan(104);
      expect(path.dirname(path.dirname(socketPath))).toBe(tmpdir());
      expect(statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700);
      expect(await roundTrip(server, 'kept')).toBe('kept');
    } finally {
      await server.stop();
    }
    expect(existsSync(path.dirname(socketPath))).toBe(false);
    // The data itself stays in DATA_DIR: the next server finds it.
    const again = await startEmbeddedMongo({ privateSocket: true, dataDir, logger: recordingLogger() });
    try {
      const client = new MongoClient(again.url, { serverSelectionTimeoutMS: 5000 });
      expect(
        await client
          .db('private')
          .collection('things')
          .findOne({ _id: 'one' as never }),
      ).toMatchObject({ value: 'kept' });
      await client.close();
    } finally {
      await again.stop();
    }
  }, 30_000);

  it('refuses a TCP address together with privateSocket', async () => {
    await expect(startEmbeddedMongo({ privateSocket: true, port: 0 })).rejects.toThrow(
      'privateSocket listens on a private Unix socket only: host, port and socketPath do not apply',
    );
  });
});
