import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { AccessTokenPayload, TokenIssuerPort } from '../../ports/token-issuer.port';
import { jwtFailureToError } from './jwt-error';
import { checkAccessToken, completeVerifyOptionsOf, type JwtSettings } from './jwt-settings';

/** TokenIssuerPort with jsonwebtoken: header `typ`, `iat`, `exp`, `aud`, `iss`, `sub`, `jti`. */
export class JsonWebTokenIssuer implements TokenIssuerPort {
  /** Made once: every verification passes the same options. */
  private readonly verifyOptions: jwt.VerifyOptions & { complete: true };

  constructor(private readonly settings: JwtSettings) {
    this.verifyOptions = completeVerifyOptionsOf(settings);
  }

  sign(subject: string, claims: Record<string, unknown> = {}): Promise<string> {
    const { options, signingKey } = this.settings;
    // Registered claims come from the settings only, never from `claims`.
    const { sub: _s, iat: _i, exp: _e, aud: _a, iss: _is, jti: _j, nbf: _n, ...custom } = claims;
    return new Promise((resolve, reject) => {
      jwt.sign(
        custom,
        signingKey,
        {
          algorithm: options.algorithm,
          expiresIn: options.expiresIn as jwt.SignOptions['expiresIn'],
          audience: options.audience,
          issuer: options.issuer,
          subject,
          jwtid: randomUUID(),
          header: { alg: options.algorithm, typ: options.header.typ },
        },
        (error, token) =>
          error || !token ? reject(error ?? new Error('jsonwebtoken returned no token')) : resolve(token),
      );
    });
  }

  verify(token: string): Promise<AccessTokenPayload> {
    return new Promise((resolve, reject) => {
      if (typeof token !== 'string' || token === '') return reject(jwtFailureToError(new Error('No auth token')));
      jwt.verify(token, this.settings.verificationKey, this.verifyOptions, (error, decoded) => {
        if (error || !decoded) return reject(jwtFailureToError(error));
        try {
          resolve(checkAccessToken(decoded, this.settings));
        } catch (failure) {
          reject(jwtFailureToError(failure));
        }
      });
    });
  }
}
