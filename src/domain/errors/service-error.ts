import { isRecord } from '../plain-record';
/** The JSON form of every service error, as it crosses the wire (Feathers v5 shape, never a stack). */
export interface ServiceErrorJSON {
  name: string;
  message: string;
  code: number;
  className: string;
  data?: unknown;
  errors?: unknown;
}

/**
 * Base of every error a service may throw. `code` is the status-like number of the Feathers
 * wire format, so a client revives the right class from `name` or, failing that, from `code`.
 */
export class ServiceError extends Error {
  readonly type = 'ServiceError';
  readonly code: number;
  readonly className: string;
  data?: unknown;
  errors?: unknown;

  constructor(name: string, code: number, className: string, message?: unknown, data?: unknown) {
    const { text, rest, errors } = splitMessage(message, data);
    super(text);
    this.name = name;
    this.code = code;
    this.className = className;
    if (rest !== undefined) this.data = rest;
    if (errors !== undefined) this.errors = errors;
  }

  toJSON(): ServiceErrorJSON {
    const json: ServiceErrorJSON = {
      name: this.name,
      message: this.message,
      code: this.code,
      className: this.className,
    };
    if (this.data !== undefined) json.data = this.data;
    if (this.errors !== undefined) json.errors = this.errors;
    return json;
  }
}

/**
 * Accepts `(message)`, `(message, data)`, `(errorLike)` and `(message, errorLike)`: an object's
 * `message` wins, its `errors` are lifted out and the rest becomes `data`. Unlike Feathers,
 * `null` is accepted and means "nothing".
 */
function splitMessage(message: unknown, data: unknown): { text: string; rest?: unknown; errors?: unknown } {
  let text = typeof message === 'string' ? message : 'Error';
  const source = isRecord(message) ? message : isRecord(data) ? data : undefined;
  if (source === undefined) return { text, rest: data ?? undefined };
  if (typeof source.message === 'string') text = source.message;
  const { message: _m, errors, ...rest } = source as Record<string, unknown>;
  const hasRest = Object.keys(rest).length > 0 || source === data;
  return { text, rest: hasRest ? rest : undefined, errors };
}
