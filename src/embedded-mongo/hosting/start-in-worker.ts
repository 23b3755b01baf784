import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { consoleWarningsLogger, type EmbeddedMongoLogger } from '../base/logger';
import type { EmbeddedMongo, EmbeddedMongoOptions } from '../start-embedded-mongo';
import type { WorkerMessage, WorkerServerOptions } from './worker-messages';

export interface WorkerHostOptions {
  /** Called once if the worker dies while serving (an uncaught error, out of memory). */
  readonly onCrash: (error: Error) => void;
  /** Caps the worker's old-generation heap (MB); past it the worker dies, the host process does not. */
  readonly maxHeapMb?: number;
}

/** How long a stop may take (the final snapshot included) before the thread is ended anyway. */
const STOP_TIMEOUT_MS = 60_000;

/**
 * Runs the server in a worker thread, so that its commands (a long unindexed query, a snapshot)
 * never block the host's event loop. Log records arrive by message and go to `options.logger`.
 */
export function startInWorker(options: EmbeddedMongoOptions, host: WorkerHostOptions): Promise<EmbeddedMongo> {
  const { logger = consoleWarningsLogger, ...serverOptions } = options;
  return new Promise((resolve, reject) => {
    const entry = workerEntry();
    const worker = new Worker(entry.file, {
      workerData: serverOptions satisfies WorkerServerOptions,
      execArgv: entry.execArgv,
      resourceLimits: host.maxHeapMb ? { maxOldGenerationSizeMb: host.maxHeapMb } : undefined,
    });
    let phase: 'starting' | 'serving' | 'stopping' | 'ended' = 'starting';
    let stopped: ((error?: Error) => void) | undefined;
    let failure: Error | undefined;
    const exited = new Promise<void>((done) => worker.once('exit', () => done()));

    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'log') return log(logger, message);
      if (message.type === 'listening') {
        phase = 'serving';
        let stopping: Promise<void> | undefined;
        resolve({ url: message.url, port: message.port, stop: () => (stopping ??= stop()) });
      } else if (message.type === 'start-failed') {
        failure = new Error(message.message);
      } else if (message.type === 'stopped') {
        stopped?.(message.error ? new Error(message.error) : undefined);
      }
    });
    worker.on('error', (error) => (failure ??= error));
    worker.once('exit', (code) => {
      const previous = phase;
      phase = 'ended';
      const error = failure ?? new Error(`the embedded mongo worker exited with code ${code}`);
      if (previous === 'starting') reject(error);
      else if (previous === 'serving') host.onCrash(error);
      else stopped?.(failure);
    });

    async function stop(): Promise<void> {
      if (phase !== 'serving') return exited;
      phase = 'stopping';
      const outcome = new Promise<Error | undefined>((done) => (stopped = done));
      worker.postMessage({ type: 'stop' });
      const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
      const error = await outcome;
      clearTimeout(timer);
      await worker.terminate(); // everything is flushed and closed; nothing else runs there
      await exited;
      if (error) throw error;
    }
  });
}

function log(logger: EmbeddedMongoLogger, message: Extract<WorkerMessage, { type: 'log' }>): void {
  logger[message.level](message.message, message.meta);
}

/**
 * The worker's entry beside this file: the TypeScript source when the host itself runs from
 * source (jest, `npm start`), loaded through @swc-node/register unless the host's own flags
 * already register it; otherwise the compiled `worker-entry.js` (dist/, or a bundle that emits
 * it next to itself).
 */
function workerEntry(): { file: string; execArgv?: string[] } {
  if (__filename.endsWith('.ts')) {
    const inherited = process.execArgv;
    const registered = inherited.some((flag) => flag.includes('@swc-node/register'));
    return {
      file: path.join(__dirname, 'worker-entry.ts'),
      // undefined: inherited
      execArgv: registered ? undefined : [...inherited, '-r', require.resolve('@swc-node/register')],
    };
  }
  const compiled = path.join(__dirname, 'worker-entry.js');
  if (!existsSync(compiled))
    throw new Error(`the embedded mongo worker entry ${compiled} is missing (a bundle must emit it beside itself)`);
  return { file: compiled };
}
