import { randomUUID } from 'node:crypto';
import jwt, { type Jwt } from 'jsonwebtoken';
import { NotAuthenticated } from '../../domain/errors';
import { jwtFailureToError } from './jwt-error';
import { verifyOptionsOf, type JwtSettings } from './jwt-settings';

/** The `typ` header of service credentials: never accepted where an access token is expected, and vice versa. */
export const SERVICE_CREDENTIAL_TYPE = 'service';

/** Who a verified service credential was issued to. */
export interface ServiceCaller {
  /** The calling server's name, as given when the credential was made. */
  name: string;
  /** The credential's id (`jti`), what revocation names. */
  credentialId: string;
}

/**
 * A credential for another server calling this one: signed with this server's token key, with
 * this server's audience and issuer, and no expiry (it is revoked by id instead).
 */
export function signServiceCredential(settings: JwtSettings, callerName: string): { credential: string; credentialId: string } {
  const { options, signingKey } = settings;
  const credentialId = randomUUID();
  const credential = jwt.sign({}, signingKey, {
    algorithm: options.algorithm,
    audience: options.audience,
    issuer: options.issuer,
    subject: callerName,
    jwtid: credentialId,
    header: { alg: options.algorithm, typ: SERVICE_CREDENTIAL_TYPE },
  });
  return { credential, credentialId };
}

/** True for a token whose header says it is a service credential (not yet verified). */
export function isServiceCredential(token: string): boolean {
  const decoded = jwt.decode(token, { complete: true }) as Jwt | null;
  return decoded?.header.typ === SERVICE_CREDENTIAL_TYPE;
}

/** Verifies a service credential: signature, algorithm, audience and issuer as for access tokens, then its id against revocation. */
export function verifyServiceCredential(token: string, settings: JwtSettings, isRevoked: (credentialId: string) => boolean): ServiceCaller {
  let decoded: Jwt;
  try {
    decoded = jwt.verify(token, settings.verificationKey, { ...verifyOptionsOf(settings), complete: true }) as Jwt;
  } catch (error) {
    throw jwtFailureToError(error);
  }
  const payload = decoded.payload;
  if (decoded.header.typ !== SERVICE_CREDENTIAL_TYPE || typeof payload !== 'object' || payload === null) throw new NotAuthenticated('invalid token type');
  if (typeof payload.sub !== 'string' || payload.sub === '' || typeof payload.jti !== 'string' || payload.jti === '') throw new NotAuthenticated('Invalid service credential');
  if (isRevoked(payload.jti)) throw new NotAuthenticated('The service credential has been revoked');
  return { name: payload.sub, credentialId: payload.jti };
}
