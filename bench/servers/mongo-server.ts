/**
 * A child that only hosts the embedded MongoDB-compatible server, for the driver-level benchmarks:
 * in a worker thread, as applications run it, or with MONGO_IN_THREAD_ENV set in this thread, so
 * that the allocation windows (which read this thread's heap) count what the server allocates.
 */
import { startEmbeddedMongo } from '../../src/embedded-mongo';
import { startEmbeddedMongo as startInThisThread } from '../../src/embedded-mongo/start-embedded-mongo';
import { serveAllocationWindows } from './allocation-window';
import { MONGO_DATA_DIR_ENV, MONGO_IN_THREAD_ENV, reportFailure, serveUntilStopped } from './server-protocol';

async function main(): Promise<void> {
  const start = process.env[MONGO_IN_THREAD_ENV] === '1' ? startInThisThread : startEmbeddedMongo;
  const mongo = await start({ host: '127.0.0.1', port: 0, dataDir: process.env[MONGO_DATA_DIR_ENV] || undefined });
  if (mongo.port === undefined) throw new Error('the database child listens on TCP');
  serveAllocationWindows();
  serveUntilStopped({ type: 'ready', port: mongo.port, sampleId: '', mongoUrl: mongo.url }, () => mongo.stop());
}

main().catch(reportFailure);
