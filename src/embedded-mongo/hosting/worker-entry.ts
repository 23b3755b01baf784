import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbeddedMongoLogger } from '../base/logger';
import { startEmbeddedMongo } from '../start-embedded-mongo';
import type { HostMessage, LogLevel, WorkerMessage, WorkerServerOptions } from './worker-messages';

/**
 * The embedded server's own thread: starts the server with the host's options, forwards every
 * log record to the host, and stops (snapshot, journal closed, lock released) when asked.
 */
const port = parentPort!;

/**
 * When the CPU is contended, the host's event loop goes first: on Linux a nice value set with
 * pid 0 applies to the calling thread only, so this lowers the database thread, not the host.
 */
const DATABASE_THREAD_NICE = 5;
if (process.platform === 'linux') {
  try {
    setPriority(0, DATABASE_THREAD_NICE);
  } catch {
    // not permitted here (a sandbox); the thread keeps the host's priority
  }
}

const post = (message: WorkerMessage): void => port.postMessage(message);

function forward(level: LogLevel) {
  return (message: string, meta?: Record<string, unknown>): void => {
    try {
      post({ type: 'log', level, message, meta });
    } catch {
      // A value the structured clone refuses: send what JSON keeps of it.
      post({ type: 'log', level, message, meta: JSON.parse(JSON.stringify(meta ?? {})) as Record<string, unknown> });
    }
  };
}

const logger: EmbeddedMongoLogger = { info: forward('info'), warn: forward('warn'), error: forward('error') };

startEmbeddedMongo({ ...(workerData as WorkerServerOptions), logger }).then(
  (server) => {
    port.on('message', (message: HostMessage) => {
      if (message.type !== 'stop') return;
      server.stop().then(
        () => finish({ type: 'stopped' }),
        (error: Error) => finish({ type: 'stopped', error: error.message }),
      );
    });
    post({ type: 'listening', url: server.url, port: server.port });
  },
  (error: Error) => finish({ type: 'start-failed', message: error.message }),
);

function finish(message: WorkerMessage): void {
  post(message);
  port.close(); // nothing else keeps the thread alive: it ends
}
