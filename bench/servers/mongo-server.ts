/** A child that only hosts the embedded MongoDB-compatible server, for the driver-level benchmarks. */
import { startEmbeddedMongo } from '../../src/embedded-mongo';
import { serveAllocationWindows } from './allocation-window';
import { MONGO_DATA_DIR_ENV, reportFailure, serveUntilStopped } from './server-protocol';

async function main(): Promise<void> {
  const mongo = await startEmbeddedMongo({ host: '127.0.0.1', port: 0, dataDir: process.env[MONGO_DATA_DIR_ENV] || undefined });
  serveAllocationWindows();
  serveUntilStopped({ type: 'ready', port: mongo.port, sampleId: '', mongoUrl: mongo.url }, () => mongo.stop());
}

main().catch(reportFailure);
