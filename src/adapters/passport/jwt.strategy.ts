import type { Jwt } from 'jsonwebtoken';
import { Strategy as PassportJwtStrategy } from 'passport-jwt';
import { internalCallParams } from '../../application/observability/internal-call-params';
import { NotAuthenticated, NotFound } from '../../domain/errors';
import type {
  AuthenticationRequest,
  AuthenticationResult,
  AuthenticationStrategyPort,
} from '../../ports/authentication-strategy.port';
import type { Params } from '../../ports/service-params';
import type { ServicePort } from '../../ports/service.port';
import type { AccessTokenPayload } from '../../ports/token-issuer.port';
import { jwtFailureToError } from './jwt-error';
import { checkAccessToken, completeVerifyOptionsOf, verifyOptionsOf, type JwtSettings } from './jwt-settings';
import { isServiceCredential, UnscopedServiceCredential, verifyServiceCredential } from './service-credential';
import { runPassportStrategy, type MinimalRequest } from './passport-strategy-adapter';
import { VerifiedTokens } from './verified-tokens';

export interface JwtStrategyOptions {
  settings: JwtSettings;
  /** The users service, looked up per call. */
  users: () => Pick<ServicePort, 'get'>;
  /**
   * Accept service credentials (other servers calling this one), unless revoked. Without it, a
   * service credential is refused like any token of the wrong type.
   */
  serviceCredentials?: ServiceCredentialChecks;
  /** Require every access token to name an active session (`sid`). Without it, sessions are not checked. */
  sessions?: SessionChecks;
}

/** Whether a session is still active: a boolean when known without waiting (the usual case), else a promise. */
export interface SessionChecks {
  isActive(sessionId: string, userId: string): boolean | Promise<boolean>;
}

/** How this server judges the service credentials it issued. */
export interface ServiceCredentialChecks {
  isRevoked(credentialId: string): boolean;
  /** Told of each refusal of a credential issued without scopes (say how to re-issue it). */
  refusedUnscoped?(caller: { name: string; credentialId: string }): void;
}

type UserRecord = Record<string, any>;

/**
 * Bearer-token authentication with passport-jwt, verifying with the same settings the issuer
 * signs with (algorithm, audience, issuer pinned; `typ`, `exp`, `sub` checked), then loading
 * the token's user by `sub`. A token whose user no longer exists is a 401, not a 404.
 */
export class JwtAuthenticationStrategy implements AuthenticationStrategyPort {
  readonly name = 'jwt';
  private readonly passport: PassportJwtStrategy;
  /** Payloads of tokens passport-jwt verified; the user is still loaded on every call. */
  private readonly verifiedTokens = new VerifiedTokens<AccessTokenPayload>();

  constructor(private readonly options: JwtStrategyOptions) {
    const { settings } = options;
    this.passport = new PassportJwtStrategy(
      {
        jwtFromRequest: (request: MinimalRequest) =>
          typeof request.body.accessToken === 'string' ? request.body.accessToken : null,
        // A KeyObject, not a string: jsonwebtoken then refuses any algorithm of another key type.
        secretOrKeyProvider: (_request, _token, done) => done(null, settings.verificationKey as never),
        // passport-jwt overwrites these three with its own top-level options, even when undefined.
        ...verifyOptionsOf(settings),
        jsonWebTokenOptions: completeVerifyOptionsOf(settings),
      },
      (decoded: Jwt, done: (error: unknown, user?: unknown, info?: unknown) => void) => {
        this.verify(decoded).then(
          (result) => (result instanceof NotAuthenticated ? done(null, false, result) : done(null, result)),
          (error: unknown) => done(error),
        );
      },
    );
  }

  async authenticate(data: AuthenticationRequest, params: Params = {}): Promise<AuthenticationResult> {
    const accessToken = data.accessToken;
    if (typeof accessToken !== 'string' || accessToken === '') throw new NotAuthenticated('No access token');
    let payload = this.verifiedTokens.get(accessToken);
    const { serviceCredentials } = this.options;
    // A remembered token is an access token (only those are remembered): not decoded again to tell.
    if (payload === undefined && serviceCredentials && isServiceCredential(accessToken)) {
      let service;
      try {
        service = verifyServiceCredential(accessToken, this.options.settings, (id) => serviceCredentials.isRevoked(id));
      } catch (error) {
        if (error instanceof UnscopedServiceCredential) serviceCredentials.refusedUnscoped?.(error.caller);
        throw error;
      }
      return { accessToken, authentication: { strategy: this.name, accessToken }, service };
    }
    if (payload !== undefined) {
      const check = this.sessionEnded(payload);
      // Known sessions are answered without a promise: the memo's path stays as fast as it was.
      const ended = check instanceof Promise ? await check : check;
      if (ended) throw ended;
    } else {
      payload = (
        await runPassportStrategy<AccessTokenPayload>(
          this.passport,
          { body: { accessToken }, headers: {} },
          jwtFailureToError,
        )
      ).user;
      this.verifiedTokens.remember(accessToken, payload.exp, payload);
    }
    // Loaded while serving the call (its trace parent): the user's read is part of the call's trace.
    const user = await this.userOf(payload, internalCallParams(params));
    if (user instanceof NotAuthenticated) throw user;
    return this.result(accessToken, payload, user);
  }

  private result(accessToken: string, payload: AccessTokenPayload, user: UserRecord): AuthenticationResult {
    return { accessToken, authentication: { strategy: this.name, accessToken, payload }, user };
  }

  /** The token's claims, once the token and its session are checked (its user is loaded by `authenticate`). */
  private async verify(decoded: Jwt): Promise<AccessTokenPayload | NotAuthenticated> {
    let payload: AccessTokenPayload;
    try {
      payload = checkAccessToken(decoded, this.options.settings);
    } catch (error) {
      // The token checks throw only NotAuthenticated; anything else is a bug and fails the call.
      if (error instanceof NotAuthenticated) return error;
      throw error;
    }
    return (await this.sessionEnded(payload)) ?? payload;
  }

  /**
   * Why the token's session no longer admits it, if it does not (answered from memory unless the session is not known
   * yet).
   */
  private sessionEnded(
    payload: AccessTokenPayload,
  ): NotAuthenticated | undefined | Promise<NotAuthenticated | undefined> {
    const sessions = this.options.sessions;
    if (!sessions) return undefined;
    if (typeof payload.sid !== 'string' || payload.sid === '')
      return new NotAuthenticated('Invalid access token: it belongs to no session', { reason: 'invalid' });
    const active = sessions.isActive(payload.sid, payload.sub);
    const refusal = (isActive: boolean) =>
      isActive
        ? undefined
        : new NotAuthenticated('The session of this access token has ended: log in again', { reason: 'revoked' });
    return typeof active === 'boolean' ? refusal(active) : active.then(refusal);
  }

  /** The token's user; a user that no longer exists makes the token invalid. */
  private async userOf(payload: AccessTokenPayload, params: Params): Promise<UserRecord | NotAuthenticated> {
    try {
      return (await this.options.users().get!(payload.sub, params)) as UserRecord;
    } catch (error) {
      if (error instanceof NotFound) return new NotAuthenticated('Invalid access token');
      throw error;
    }
  }
}
