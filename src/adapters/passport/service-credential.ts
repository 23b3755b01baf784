import { randomUUID } from 'node:crypto';
import jwt, { type Jwt } from 'jsonwebtoken';
import { NotAuthenticated } from '../../domain/errors';
import type { ServiceCallerInfo, ServiceScopes } from '../../ports/service-caller';
import { jwtFailureToError } from './jwt-error';
import { completeVerifyOptionsOf, type JwtSettings } from './jwt-settings';

/** The `typ` header of service credentials: never accepted where an access token is expected, and vice versa. */
export const SERVICE_CREDENTIAL_TYPE = 'service';

/** The claim that holds a credential's scopes: service path -> allowed methods. */
const SCOPES_CLAIM = 'services';

/** Who a verified service credential was issued to, and what it may call. */
export type ServiceCaller = ServiceCallerInfo;

/** Why a credential was refused although its signature is good: it was issued before credentials had scopes. */
export class UnscopedServiceCredential extends NotAuthenticated {
  constructor(readonly caller: { name: string; credentialId: string }) {
    super('This service credential names no services it may call; the server that issued it must issue a new one');
  }
}

/**
 * A credential for another server calling this one: signed with this server's token key, with
 * this server's audience and issuer, the services and methods it may call, and no expiry (it is
 * revoked by id instead).
 */
export function signServiceCredential(
  settings: JwtSettings,
  callerName: string,
  scopes: ServiceScopes,
): { credential: string; credentialId: string } {
  const checked = checkedScopes(scopes);
  if (checked === undefined)
    throw new Error('A service credential must name at least one service and one method for each');
  const { options, signingKey } = settings;
  const credentialId = randomUUID();
  const credential = jwt.sign({ [SCOPES_CLAIM]: checked }, signingKey, {
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

/**
 * Verifies a service credential: signature, algorithm, audience and issuer as for access tokens,
 * its id against revocation, then its scopes. A credential without scopes (issued before they
 * existed) is refused with `UnscopedServiceCredential`.
 */
export function verifyServiceCredential(
  token: string,
  settings: JwtSettings,
  isRevoked: (credentialId: string) => boolean,
): ServiceCaller {
  let decoded: Jwt;
  try {
    decoded = jwt.verify(token, settings.verificationKey, completeVerifyOptionsOf(settings)) as Jwt;
  } catch (error) {
    throw jwtFailureToError(error);
  }
  const payload = decoded.payload;
  if (decoded.header.typ !== SERVICE_CREDENTIAL_TYPE || typeof payload !== 'object' || payload === null)
    throw new NotAuthenticated('invalid token type');
  if (typeof payload.sub !== 'string' || payload.sub === '' || typeof payload.jti !== 'string' || payload.jti === '')
    throw new NotAuthenticated('Invalid service credential');
  if (isRevoked(payload.jti)) throw new NotAuthenticated('The service credential has been revoked');
  const scopes = checkedScopes((payload as Record<string, unknown>)[SCOPES_CLAIM]);
  if (scopes === undefined) throw new UnscopedServiceCredential({ name: payload.sub, credentialId: payload.jti });
  return { name: payload.sub, credentialId: payload.jti, scopes };
}

/**
 * The scopes as a null-prototype object of non-empty method lists, or undefined when there are none or they are
 * malformed.
 */
function checkedScopes(value: unknown): ServiceScopes | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const scopes: Record<string, readonly string[]> = Object.create(null);
  for (const [path, methods] of Object.entries(value)) {
    if (
      path === '' ||
      !Array.isArray(methods) ||
      methods.length === 0 ||
      !methods.every((method) => typeof method === 'string' && method !== '')
    )
      return undefined;
    scopes[path] = Object.freeze([...new Set(methods as string[])]);
  }
  return Object.keys(scopes).length > 0 ? Object.freeze(scopes) : undefined;
}
