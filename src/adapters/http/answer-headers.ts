import type { IncomingMessage } from 'node:http';
import { copyWith } from '../../domain/plain-record';
import { clientAddressSource, secureRequestSource, type TrustProxy } from './client-address';
import type { CorsPolicy } from './cors-policy';
import { apiSecurityHeaders, captureSecurityHeaders, plainHttpSecurityHeaders } from './security-headers';
import type { HelmetOptions } from 'helmet';

/**
 * The headers of each kind of answer, decided here and nowhere else: a JSON answer (services,
 * probes, errors, the 404) carries the API set, a page (the docs, the application's own routes on
 * the Express app) helmet's full set, and both the CORS headers the request's origin is allowed.
 */
export class AnswerHeaders {
  /** helmet's full set over HTTPS; over plain HTTP without `upgrade-insecure-requests`. */
  private readonly securePage: Readonly<Record<string, string>>;
  private readonly plainPage: Readonly<Record<string, string>>;
  private readonly api: Readonly<Record<string, string>>;
  private readonly isSecure: (req: IncomingMessage) => boolean;
  /** `params.ip` and the logged address, honouring `trustProxy`. */
  readonly clientAddress: (req: IncomingMessage) => string | undefined;

  constructor(
    helmetOptions: boolean | HelmetOptions,
    trustProxy: TrustProxy | undefined,
    readonly cors: CorsPolicy | undefined,
  ) {
    this.securePage =
      helmetOptions === false ? {} : captureSecurityHeaders(helmetOptions === true ? {} : helmetOptions);
    this.plainPage = plainHttpSecurityHeaders(this.securePage);
    this.api = helmetOptions === false ? {} : apiSecurityHeaders(this.securePage);
    this.isSecure = secureRequestSource(trustProxy);
    this.clientAddress = clientAddressSource(trustProxy);
  }

  /** A fresh object, made in one step with the request id (the exchange may add location, retry-after). */
  json(req: IncomingMessage, requestId: string): Record<string, string> {
    const cors = this.cors?.headersFor(req.headers);
    // The id first: a literal that starts with a key (not a spread) keeps one hidden class, and needs no second object.
    return cors ? { 'x-request-id': requestId, ...this.api, ...cors } : { 'x-request-id': requestId, ...this.api };
  }

  page(req: IncomingMessage): Record<string, string> {
    const base = this.isSecure(req) ? this.securePage : this.plainPage;
    const cors = this.cors?.headersFor(req.headers);
    return cors ? copyWith(base, cors) : { ...base };
  }
}
