/** The logging the server needs; pino, console or a test spy all fit. */
export interface EmbeddedMongoLogger {
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/** Default: warnings and errors to stderr, routine events nowhere (it runs inside tests and apps). */
export const consoleWarningsLogger: EmbeddedMongoLogger = {
  info: () => undefined,
  warn: (message, meta) => console.warn(`[embedded-mongo] ${message}`, meta ?? ''),
  error: (message, meta) => console.error(`[embedded-mongo] ${message}`, meta ?? ''),
};
