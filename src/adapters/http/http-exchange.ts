import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { TraceParent } from '../../ports/tracer.port';
import { errorAnswer } from '../../application/transport/error-answer';
import { bodyStillArriving, endAfterDiscardingBody } from './answer-before-body-read';
import type { HttpAdapterSettings } from './http-adapter-options';
import { isBodyless } from './response-status';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * One request and its response: collects the headers to send, writes JSON bodies directly
 * (`JSON.stringify` + `end`, no ETag, no content negotiation) and logs one line when done.
 */
export class HttpExchange {
  readonly headers: OutgoingHttpHeaders;
  /** The request's server span, when traced: the call is made in it and the log line names it. */
  traceContext?: TraceParent;
  private readonly startedAt: number;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly requestId: string,
    private readonly settings: HttpAdapterSettings,
  ) {
    this.headers = settings.headers.json(req, requestId);
    this.startedAt = performance.now();
  }

  /** The client's address as `req.ip` gives it (honouring `trust proxy`), also when Express never saw the request. */
  clientAddress(): string | undefined {
    return this.settings.headers.clientAddress(this.req);
  }

  /**
   * A JSON answer carries its own headers only: what a page middleware of the Express app set
   * before nothing there answered is dropped.
   */
  discardEarlierHeaders(): void {
    if (this.res.headersSent) return;
    for (const name of this.res.getHeaderNames()) this.res.removeHeader(name);
  }

  /** Sends `body` as JSON (nothing for `undefined` or a bodyless status). */
  send(status: number, body?: unknown): void {
    const payload = body === undefined || isBodyless(status) ? undefined : JSON.stringify(body);
    this.write(status, payload);
    this.log(status);
  }

  /** Sends a page: `headers` are the page's own (the exchange's JSON set does not apply), plus the request id. */
  sendPage(status: number, headers: OutgoingHttpHeaders, body: string | Buffer): void {
    headers['x-request-id'] = this.requestId;
    headers['content-length'] = Buffer.byteLength(body);
    this.res.writeHead(status, headers);
    this.res.end(body);
    this.log(status);
  }

  /** The error shape of section 2 of the wire contract, never a stack. */
  sendError(error: unknown): void {
    const { status, body, unexpected } = errorAnswer(error, this.settings.production);
    if (this.res.headersSent) {
      // Nothing more can be said to the client; end the exchange and keep the reason in the logs.
      this.res.destroy();
    } else {
      const retryAfter = (body.data as { retryAfter?: unknown } | undefined)?.retryAfter;
      if (status === 429 && typeof retryAfter === 'number') this.headers['retry-after'] = String(retryAfter);
      this.write(status, JSON.stringify(body));
    }
    this.log(status, unexpected ? error : undefined, body.name);
  }

  private write(status: number, payload: string | undefined): void {
    const headers = this.headers;
    if (payload !== undefined) {
      headers['content-type'] = JSON_CONTENT_TYPE;
      headers['content-length'] = Buffer.byteLength(payload);
    }
    if (bodyStillArriving(this.req)) {
      headers.connection = 'close';
      this.res.writeHead(status, headers);
      endAfterDiscardingBody(this.req, this.res, payload);
      return;
    }
    this.res.writeHead(status, headers);
    this.res.end(payload);
  }

  private log(status: number, error?: unknown, errorName?: string): void {
    const { req, settings } = this;
    // Skip building the entry when a pino-like logger would drop it anyway.
    if (error === undefined && settings.logger.isLevelEnabled?.('info') === false) return;
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    const entry: Record<string, unknown> = {
      requestId: this.requestId,
      method: req.method,
      // The path only, bounded: query strings may hold tokens or be huge.
      path: (queryAt === -1 ? url : url.slice(0, queryAt)).slice(0, 200),
      status,
      durationMs: Math.round((performance.now() - this.startedAt) * 1000) / 1000,
    };
    if (settings.trustProxy !== undefined) entry.remoteAddress = this.clientAddress();
    if (this.traceContext !== undefined && settings.tracer !== undefined)
      Object.assign(entry, settings.tracer.logFields(this.traceContext));
    if (errorName !== undefined) entry.error = errorName;
    if (error !== undefined) {
      entry.err = error;
      settings.logger.error(entry, 'request failed');
    } else {
      settings.logger.info(entry, 'request completed');
    }
  }
}
