import type { IncomingMessage } from 'node:http';
import { BadRequest, PayloadTooLarge, type ServiceError } from '../../domain/errors';
import { parseJsonBody } from './parse-json-body';
import { parseQueryString } from './parse-query-string';

/**
 * Reads and parses a request body: JSON (`application/json`, `*+json`) or urlencoded forms.
 * Other or missing content types give `{}` (as Feathers does); bodies over `limit` bytes are a
 * 413 as soon as the size is known, without buffering the rest.
 */
export async function readRequestBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const kind = bodyKind(req.headers['content-type']);
  if (kind === undefined) return {};
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity')
    throw new BadRequest(`Unsupported content encoding ${encoding}`);
  const text = await readText(req, limit);
  if (text === '') return {};
  return kind === 'json' ? parseJsonBody(text) : parseQueryString(text);
}

function bodyKind(contentType: string | undefined): 'json' | 'form' | undefined {
  if (contentType === undefined) return undefined;
  const semicolon = contentType.indexOf(';');
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return undefined;
}

function readText(req: IncomingMessage, limit: number): Promise<string> {
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    if (declared === '0') return Promise.resolve('');
    if (Number(declared) > limit) return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        // The rest is not buffered: the answer reads and discards it (see answer-before-body-read.ts).
        cleanup();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(new BadRequest(`Could not read the request body: ${error.message}`));
    };
    // A client that goes away mid-body must not leave the call pending forever.
    const onClose = (): void => {
      if (!req.complete) onError(new Error('the client closed the connection'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function tooLarge(limit: number): ServiceError {
  return new PayloadTooLarge(`The request body is larger than ${limit} bytes`, { limit });
}
