import type { AccessTokenPayload } from './token-issuer.port';
import type { Params } from './service-params';
import type { ServiceCallerInfo } from './service-caller';

/** What a client sends to `POST /authentication`: the strategy name plus its fields. */
export interface AuthenticationRequest {
  strategy: string;
  [field: string]: unknown;
}

/** `authentication` of a result: the strategy that succeeded and, for tokens, the token and its claims. */
export interface AuthenticationInfo {
  strategy: string;
  accessToken?: string;
  payload?: AccessTokenPayload;
  [key: string]: unknown;
}

/**
 * A successful authentication: a user, or (for a service credential) the calling server. A
 * strategy that verified a token returns it as `accessToken`.
 */
export interface AuthenticationResult {
  accessToken?: string;
  /** A login's or refresh's next refresh token (opaque; the server keeps only its hash). */
  refreshToken?: string;
  authentication: AuthenticationInfo;
  user?: Record<string, any>;
  service?: ServiceCallerInfo;
}

/** One way of proving who the caller is (email/password, bearer token, ...). */
export interface AuthenticationStrategyPort {
  readonly name: string;
  /** Resolves with the authenticated user, or throws `NotAuthenticated`. */
  authenticate(data: AuthenticationRequest, params: Params): Promise<AuthenticationResult>;
}
