import { BadRequest, convert, errorClassForCode, GeneralError, isServiceError } from '../../domain/errors';
import { toHeaderRecord } from './merge-headers';

/** What every connection hands to the decoder: the status, headers and the body as text. */
export interface RawResponse {
  status: number;
  statusText?: string;
  /**
   * The library's headers as it gave them (a fetch `Headers`, `AxiosHeaders`, a plain record).
   * Converted to a plain record only for an error's `response`: successes never read them.
   */
  headers: unknown;
  /** The body as text; `undefined` when the library only gave a parsed `body`. */
  text?: string;
  body?: unknown;
}

/** Attached to every error revived from a response (`error.response`). */
export interface ResponseInfo {
  status: number;
  statusText: string;
  headers: Record<string, string>;
}

const SNIPPET_LENGTH = 1000;

type Parsed = { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'text'; text: string };

function parseBody(raw: RawResponse): Parsed {
  if (raw.text === undefined)
    return raw.body === undefined || raw.body === '' ? { kind: 'empty' } : { kind: 'json', value: raw.body };
  if (raw.text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(raw.text) };
  } catch {
    return { kind: 'text', text: raw.text };
  }
}

/**
 * One decoder for fetch, axios and superagent: 2xx JSON is the result, an empty body (204) is
 * `null`, and any other status throws the matching error class: revived from a JSON error body,
 * else chosen by status with the raw text kept in `data.body`. Every such error has `response`.
 */
export function decodeResponse(raw: RawResponse): unknown {
  const parsed = parseBody(raw);
  if (raw.status >= 200 && raw.status < 300) {
    if (parsed.kind === 'empty') return null;
    if (parsed.kind === 'json') return parsed.value;
    throw withResponse(
      new GeneralError('The server sent a response that is not JSON', {
        status: raw.status,
        body: snippet(parsed.text),
      }),
      responseInfo(raw),
    );
  }
  throw withResponse(errorFromBody(raw, parsed), responseInfo(raw));
}

function responseInfo(raw: RawResponse): ResponseInfo {
  return { status: raw.status, statusText: raw.statusText ?? '', headers: toHeaderRecord(raw.headers) };
}

function errorFromBody(raw: RawResponse, parsed: Parsed): Error {
  if (parsed.kind === 'json' && isErrorJson(parsed.value)) {
    const revived = convert(parsed.value);
    if (isServiceError(revived)) return revived;
    return errorForStatus(raw.status, revived.message, parsed.value);
  }
  const body = parsed.kind === 'text' ? snippet(parsed.text) : parsed.kind === 'json' ? parsed.value : undefined;
  const message = `Request failed with status ${raw.status}${raw.statusText ? ` ${raw.statusText}` : ''}`;
  return errorForStatus(raw.status, message, body === undefined ? undefined : { body });
}

/** The class for the status; an unknown 4xx is a `BadRequest`, anything else a `GeneralError`. */
function errorForStatus(status: number, message: string, data: unknown): Error {
  const cls = errorClassForCode(status) ?? (status >= 400 && status < 500 ? BadRequest : GeneralError);
  return new cls(message, data);
}

function isErrorJson(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.name === 'string' || typeof record.className === 'string';
}

function snippet(text: string): string {
  return text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH)}...` : text;
}

function withResponse(error: Error, info: ResponseInfo): Error {
  Object.defineProperty(error, 'response', { value: info, enumerable: false, configurable: true, writable: true });
  return error;
}
