import type { EmbeddedMongoOptions } from '../start-embedded-mongo';

/** What crosses the thread boundary: plain data only (functions such as the logger stay on the host). */
export type WorkerServerOptions = Omit<EmbeddedMongoOptions, 'logger'>;

export type LogLevel = 'info' | 'warn' | 'error';

/** Worker to host. */
export type WorkerMessage =
  | {
      readonly type: 'log';
      readonly level: LogLevel;
      readonly message: string;
      readonly meta?: Record<string, unknown>;
    }
  | { readonly type: 'listening'; readonly url: string; readonly port?: number }
  | { readonly type: 'start-failed'; readonly message: string }
  | { readonly type: 'stopped'; readonly error?: string };

/** Host to worker. */
export type HostMessage = { readonly type: 'stop' };
