/** Structured logging; pino satisfies it, tests pass a silent one. */
export interface LoggerPort {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}
