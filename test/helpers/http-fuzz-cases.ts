import fc from 'fast-check';
import { isErrorBody } from './http';
import type { RawRequest, RawResponse } from './raw-request';

/** Pieces hostile query strings are made of: operators, prototype keys, brackets, dots. */
const KEY_PARTS = [
  '$where',
  '$ne',
  '$in',
  '$or',
  '$and',
  '$limit',
  '$skip',
  '$sort',
  '$select',
  '$regex',
  '$expr',
  '$function',
  '__proto__',
  'constructor',
  'prototype',
  'text',
  'userId',
  'email',
  'password',
  'likes',
  'createdAt',
  'read',
  'name',
  '_id',
  'id',
  '0',
  '1',
  '',
  'a.b',
];
/** Weighted towards the services, so most cases get past routing. */
const PATHS: Array<[string, number]> = [
  ['/messages', 4],
  ['/messages/', 4],
  ['/users', 2],
  ['/users/', 2],
  ['/authentication', 2],
  ['/authentication/', 1],
  ['/health', 1],
  ['/ready', 1],
  ['/nowhere', 1],
];
const METHODS: Array<[string, number]> = [
  ['GET', 4],
  ['POST', 3],
  ['PATCH', 3],
  ['PUT', 2],
  ['DELETE', 2],
  ['HEAD', 1],
  ['OPTIONS', 1],
  ['TRACE', 1],
  ['PROPFIND', 1],
];
const weighted = (choices: Array<[string, number]>) =>
  fc.oneof(...choices.map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })));
const HEADER_NAMES = [
  'authorization',
  'content-type',
  'accept',
  'x-service-method',
  'x-request-id',
  'origin',
  'accept-encoding',
  'access-control-request-method',
  'x-forwarded-for',
  'cookie',
];

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 60,
});
/** Any text, percent-encoded so it can sit on a request line. */
const encodedText = fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent);

const queryKey = fc
  .tuple(
    fc.constantFrom(...KEY_PARTS),
    fc.array(fc.oneof(fc.constantFrom(...KEY_PARTS), encodedText), { maxLength: 4 }),
    fc.boolean(),
  )
  .map(([head, rest, dotted]) =>
    dotted ? [head, ...rest].join('.') : head + rest.map((part) => `[${part}]`).join(''),
  );
const queryString = fc.oneof(
  fc
    .array(
      fc.tuple(queryKey, fc.oneof(encodedText, fc.constantFrom('1', '-1', 'true', 'null', '{}', '[]', '%00', '%'))),
      { maxLength: 8 },
    )
    .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&')),
  fc.string({ unit: fc.constantFrom('[', ']', '=', '&', '$', '.', '%', 'a', '_', '0', '+'), maxLength: 60 }),
);
const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc
    .dictionary(fc.constantFrom(...KEY_PARTS, 'strategy', '$inc', '$set'), fc.jsonValue({ maxDepth: 3 }))
    .map((value) => JSON.stringify(value)),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

export interface FuzzCase {
  method: string;
  path: string;
  id?: string;
  query?: string;
  body?: string;
  headers: Record<string, string>;
  withToken: boolean;
}

export const fuzzCase: fc.Arbitrary<FuzzCase> = fc.record(
  {
    method: weighted(METHODS),
    path: weighted(PATHS),
    id: fc.oneof(
      encodedText,
      fc.constantFrom('%7B%22%24ne%22%3Anull%7D', '0', '000000000000000000000000', '%2E%2E', '..'),
    ),
    query: queryString,
    body: jsonBody,
    headers: fc.dictionary(fc.constantFrom(...HEADER_NAMES), printable, { maxKeys: 4 }),
    withToken: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
  },
  { requiredKeys: ['method', 'path', 'headers', 'withToken'] },
);

export function toRequest(sample: FuzzCase, token: string): RawRequest {
  const pathname = sample.path.endsWith('/') && sample.id !== undefined ? sample.path + sample.id : sample.path;
  const headers = { ...sample.headers };
  if (sample.withToken) headers.authorization = `Bearer ${token}`;
  if (sample.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  return {
    method: sample.method,
    path: sample.query === undefined ? pathname : `${pathname}?${sample.query}`,
    headers,
    body: sample.body,
  };
}

/** A well-formed answer: never 5xx for client input, JSON when there is a body, the error shape for errors. */
export function checkAnswer(spec: RawRequest, response: RawResponse): void {
  const where = `${spec.method} ${spec.path.slice(0, 300)} ${JSON.stringify(spec.headers)} ${spec.body?.slice(0, 300)}`;
  if (response.status >= 500) throw new Error(`${response.status} for ${where}: ${response.text.slice(0, 300)}`);
  if (spec.method === 'HEAD' || response.status === 204) return;
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    throw new Error(`not JSON (${response.status}) for ${where}: ${response.text.slice(0, 300)}`);
  }
  if (response.status >= 400 && !isErrorBody(body, response.status))
    throw new Error(`malformed error for ${where}: ${response.text.slice(0, 300)}`);
  if (/\$2[aby]\$\d\d\$|\$scrypt\$/.test(response.text) || /\n\s+at /.test(response.text))
    throw new Error(`hash or stack leaked for ${where}`);
}
