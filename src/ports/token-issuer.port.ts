/** The claims of an access token; `sub` is the user id as a string. */
export interface AccessTokenPayload {
  sub: string;
  iat: number;
  exp: number;
  aud?: string | string[];
  iss?: string;
  jti?: string;
  /** The session the token belongs to (its login). */
  sid?: string;
  [claim: string]: unknown;
}

/**
 * Signs and verifies access tokens. `verify` pins the algorithm, audience, issuer and token
 * type, and throws `NotAuthenticated` (with `data.name`, e.g. 'TokenExpiredError') on failure.
 */
export interface TokenIssuerPort {
  /** Signs a token for `subject`; extra claims are added to the payload. */
  sign(subject: string, claims?: Record<string, unknown>): Promise<string>;
  verify(token: string): Promise<AccessTokenPayload>;
}
