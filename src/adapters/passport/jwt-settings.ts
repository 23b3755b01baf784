import { createPrivateKey, createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import type { Algorithm, Jwt } from 'jsonwebtoken';
import { NotAuthenticated } from '../../domain/errors';
import { copyWith } from '../../domain/plain-record';
import type { AccessTokenPayload } from '../../ports/token-issuer.port';

/** How access tokens are signed; any subset may be configured, the rest keeps the defaults. */
export interface JwtOptions {
  algorithm: Algorithm;
  /** A number of seconds or a `ms` string such as '1d' or '2h'. */
  expiresIn: string | number;
  audience: string;
  issuer: string;
  header: { typ: string };
}

/**
 * Feathers v5's algorithm and token type; a 15-minute lifetime (sessions go on with refresh
 * tokens); audience and issuer name this project (set them per deployment).
 */
export const DEFAULT_JWT_OPTIONS: Readonly<JwtOptions> = Object.freeze({
  algorithm: 'HS256',
  expiresIn: '15m',
  audience: 'hexa-services',
  issuer: 'hexa-services',
  header: Object.freeze({ typ: 'access' }),
});

/** A shared secret (HS*), or a PEM key pair (RS*, PS*, ES*). */
export type JwtKeys = { secret: string | Buffer } | { privateKey: string | Buffer; publicKey: string | Buffer };

/** The one object signing and verification both read, so they cannot drift apart. */
export interface JwtSettings {
  readonly options: Readonly<JwtOptions>;
  readonly signingKey: KeyObject;
  readonly verificationKey: KeyObject;
  /** The algorithms verification accepts: exactly the configured one. */
  readonly algorithms: Algorithm[];
}

const FAMILIES: Record<string, readonly string[]> = {
  secret: ['HS256', 'HS384', 'HS512'],
  rsa: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
  'rsa-pss': ['PS256', 'PS384', 'PS512'],
  ec: ['ES256', 'ES384', 'ES512'],
};

/**
 * Merges partial options over the defaults (unlike Feathers, which replaces them all) and
 * checks that the algorithm fits the key type, so an HS token can never be checked with a
 * public key used as an HMAC secret.
 */
export function createJwtSettings(keys: JwtKeys, jwtOptions: Partial<JwtOptions> = {}): JwtSettings {
  const defined = Object.fromEntries(
    Object.entries(jwtOptions).filter(([, value]) => value !== undefined),
  ) as Partial<JwtOptions>;
  const options: JwtOptions = copyWith(copyWith(DEFAULT_JWT_OPTIONS, defined), {
    header: copyWith(DEFAULT_JWT_OPTIONS.header, defined.header ?? {}),
  });
  let signingKey: KeyObject;
  let verificationKey: KeyObject;
  let family: string;
  if ('secret' in keys) {
    signingKey = verificationKey = createSecretKey(
      typeof keys.secret === 'string' ? Buffer.from(keys.secret, 'utf8') : keys.secret,
    );
    family = 'secret';
  } else {
    signingKey = createPrivateKey(keys.privateKey);
    verificationKey = createPublicKey(keys.publicKey);
    family = verificationKey.asymmetricKeyType ?? 'unknown';
  }
  if (!(FAMILIES[family] ?? []).includes(options.algorithm)) {
    throw new Error(
      `jwtOptions.algorithm ${options.algorithm} does not fit ` +
        `a ${family === 'secret' ? 'shared secret' : `${family} key`}`,
    );
  }
  if (typeof options.header.typ !== 'string' || options.header.typ === '')
    throw new Error('jwtOptions.header.typ must be a non-empty string');
  return { options: Object.freeze(options), signingKey, verificationKey, algorithms: [options.algorithm] };
}

/** The jsonwebtoken verify options of the settings (algorithm, audience and issuer pinned). */
export function verifyOptionsOf(settings: JwtSettings) {
  return { algorithms: settings.algorithms, audience: settings.options.audience, issuer: settings.options.issuer };
}

/** The same checks, asking jsonwebtoken for the whole token (header included), as every verification here does. */
export function completeVerifyOptionsOf(settings: JwtSettings) {
  return {
    algorithms: settings.algorithms,
    audience: settings.options.audience,
    issuer: settings.options.issuer,
    complete: true as const,
  };
}

/**
 * What jsonwebtoken does not check: the token type header and the presence of `exp` and
 * `sub`, so refresh or other kinds of token cannot pass as access tokens.
 */
export function checkAccessToken(decoded: Jwt, settings: JwtSettings): AccessTokenPayload {
  const invalid = (message: string) => {
    const error = new NotAuthenticated(message);
    error.data = { name: 'JsonWebTokenError' };
    return error;
  };
  if (decoded.header.typ !== settings.options.header.typ) throw invalid('invalid token type');
  const payload = decoded.payload;
  if (typeof payload !== 'object' || payload === null) throw invalid('jwt payload must be an object');
  if (typeof payload.exp !== 'number') throw invalid('jwt expiry missing');
  if (typeof payload.sub !== 'string' || payload.sub === '') throw invalid('jwt subject missing');
  return payload as AccessTokenPayload;
}
