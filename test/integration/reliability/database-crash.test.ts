import { MongoClient } from 'mongodb';
import { killChildren } from '../../helpers/child-process';
import { startMainProcess } from '../../helpers/main-process';

/**
 * `npm start` on the embedded store: when the database's worker thread dies (here: out of memory
 * under EMBEDDED_MAX_HEAP_MB), the process exits with code 1 and one JSON log line saying so,
 * instead of answering every later request with an error.
 */
describe('reliability: the embedded database thread dies', () => {
  afterAll(killChildren);

  it('ends the process with one clear log line and exit code 1', async () => {
    const app = await startMainProcess({ STORE: 'mongo', DATA_DIR: ':memory:', EMBEDDED_MAX_HEAP_MB: '32' });
    const [, databaseUrl] = await app.child.waitForOutput(
      /"component":"embedded-mongo".*"url":"(mongodb:\/\/[^"]+)"/,
      10_000,
    );
    const client = new MongoClient(databaseUrl, { serverSelectionTimeoutMS: 2000, retryWrites: false });
    const big = 'x'.repeat(1024 * 1024);
    try {
      // Bounded: 32 MB of heap holds far fewer than 2,000 documents of 1 MB.
      for (let i = 0; i < 2000 && app.child.running; i++)
        await client.db('fill').collection('big').insertOne({ big, i });
    } catch {
      // the database is gone
    } finally {
      await client.close().catch(() => undefined);
    }
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      app.child.exited,
      new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), 15_000))),
    ]);
    clearTimeout(timer);
    expect(exit).toEqual({ code: 1, signal: null });
    const crashLines = app.child.stdout.split('\n').filter((line) => line.includes('stopped unexpectedly'));
    expect(crashLines).toHaveLength(1);
    expect(JSON.parse(crashLines[0])).toMatchObject({
      level: 50,
      component: 'embedded-mongo',
      msg: 'the embedded database stopped unexpectedly; exiting',
    });
    expect(JSON.parse(crashLines[0]).error).toMatch(/memory|heap/i);
    expect(app.child.stderr).toBe('');
    // One JSON stream: the database's own records go through the application's logger.
    const records = app.child.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { component?: string; msg: string });
    expect(records.filter((record) => record.component === 'embedded-mongo').map((record) => record.msg)).toEqual([
      'embedded mongo listening',
      'the embedded database stopped unexpectedly; exiting',
    ]);
  }, 60_000);
});
