import { NotAuthenticated, TooManyRequests } from '../../domain/errors';
import type { NullableId } from '../../domain/id';
import type {
  AuthenticationRequest,
  AuthenticationResult,
  AuthenticationStrategyPort,
} from '../../ports/authentication-strategy.port';
import type { Params } from '../../ports/service-params';
import type { TokenIssuerPort } from '../../ports/token-issuer.port';
import { normalizeEmailAddress } from '../services/users/email-address';
import { clientAddressOf } from './client-address';
import type { GrantedLoginAttempt, LoginAttemptKeys, LoginRateLimiterPort } from '../../ports/login-rate-limiter.port';
import { LoginRateLimiter, type LoginRateLimitOptions } from './login-rate-limiter';
import { copyWith, isRecord, withoutFields } from '../../domain/plain-record';
import type { SessionRegistry } from './sessions/session-registry';

/** The methods transports may call on the authentication service. */
export const AUTHENTICATION_METHODS = ['create', 'remove'] as const;

export interface AuthenticationServiceOptions {
  strategies: AuthenticationStrategyPort[];
  tokenIssuer: TokenIssuerPort;
  /** Strategies `create` accepts. Default: every registered strategy. */
  authStrategies?: string[];
  /** User fields never returned (e.g. the password hash). */
  hiddenFields?: readonly string[];
  /** The user's id field for the token subject. Default: `id`, else `_id`. */
  entityId?: string;
  /** Brute-force limits of `create` (an in-memory limiter); `false` turns them off. */
  rateLimit?: Partial<LoginRateLimitOptions> | false;
  /** A limiter shared by several instances (e.g. Redis); replaces the in-memory one unless `rateLimit` is false. */
  rateLimiter?: LoginRateLimiterPort;
  now?: () => number;
  /**
   * Sessions: each login starts one, its tokens carry its id (`sid`), login answers a refresh
   * token too, and logout ends it. Without them a login answers an access token alone.
   */
  sessions?: SessionRegistry;
  /** Accounts that may not log in (disabled by an administrator): refused like a wrong password. */
  refusesLogin?: (user: Record<string, unknown>) => boolean;
}

/** The strategy of `{ strategy: 'refresh', refreshToken }`: answered by the sessions, not by a Passport strategy. */
export const REFRESH_STRATEGY = 'refresh';

const NO_STRATEGY = 'Invalid authentication information (no `strategy` set)';
const SERVICE_CREDENTIAL_NO_LOGIN =
  'A service credential authenticates calls from another server; it cannot log in or out';

/**
 * `POST /authentication` (`create`): authenticates with a named strategy and returns
 * `{ accessToken, refreshToken, authentication: { strategy, payload }, user }`, starting a
 * session; a `jwt` request returns the token it was given (a re-login never extends a token);
 * `{ strategy: 'refresh', refreshToken }` answers a new pair of the same session (rotation).
 * `DELETE /authentication` (`remove`) ends the bearer token's session (`?all=true`: every session
 * of its user) and returns the same shape. `authenticate` serves the hook.
 */
export class AuthenticationService {
  private readonly strategies = new Map<string, AuthenticationStrategyPort>();
  private readonly authStrategies: string[];
  private readonly limiter?: LoginRateLimiterPort;

  constructor(private readonly options: AuthenticationServiceOptions) {
    for (const strategy of options.strategies) this.strategies.set(strategy.name, strategy);
    this.authStrategies = options.authStrategies ?? [...this.strategies.keys()];
    if (options.rateLimit !== false)
      this.limiter = options.rateLimiter ?? new LoginRateLimiter(options.rateLimit ?? {}, options.now);
  }

  /**
   * Authenticates `data` with one of `allowed` (all registered when empty); the user comes back without hidden fields.
   */
  async authenticate(data: unknown, params: Params = {}, ...allowed: string[]): Promise<AuthenticationResult> {
    if (!isRecord(data) || typeof data.strategy !== 'string' || data.strategy === '')
      throw new NotAuthenticated(NO_STRATEGY);
    if (allowed.length > 0 && !allowed.includes(data.strategy)) {
      throw new NotAuthenticated('Invalid authentication information (strategy not allowed in authStrategies)');
    }
    const strategy = this.strategies.get(data.strategy);
    if (!strategy) throw new NotAuthenticated('Invalid authentication information');
    // Strategies look users up with internal calls: the caller's transport fields stay out.
    const { provider: _p, authentication: _a, authenticated: _d, query: _q, ...rest } = params;
    const result = await strategy.authenticate(data as AuthenticationRequest, rest);
    return result.user === undefined ? result : copyWith(result, { user: this.withoutHiddenFields(result.user) });
  }

  async create(data: unknown, params: Params = {}): Promise<AuthenticationResult> {
    if (this.options.sessions && isRecord(data) && data.strategy === REFRESH_STRATEGY)
      return this.refresh(this.options.sessions, data.refreshToken, params);
    const attempt = await this.reserveAttempt(data, params);
    let result: AuthenticationResult;
    try {
      result = await this.authenticate(data, params, ...this.authStrategies);
    } catch (error) {
      // A wrong credential keeps its reservation: it is the counted failure.
      if (attempt && !(error instanceof NotAuthenticated)) await this.limiter?.release(attempt);
      throw error;
    }
    // A service credential authenticates calls; it is not a login.
    const user = result.user;
    if (user === undefined) throw new NotAuthenticated(SERVICE_CREDENTIAL_NO_LOGIN);
    if (this.options.refusesLogin?.(user)) throw new NotAuthenticated('Invalid login');
    if (attempt) await this.limiter?.succeeded(attempt);
    if (result.accessToken) return result;
    const subject = this.subjectOf(user);
    if (!this.options.sessions) {
      const accessToken = await this.options.tokenIssuer.sign(subject);
      return {
        accessToken,
        authentication: copyWith(result.authentication, {
          payload: await this.options.tokenIssuer.verify(accessToken),
        }),
        user,
      };
    }
    const { sessionId, refreshToken } = await this.options.sessions.start(subject, params);
    const accessToken = await this.options.tokenIssuer.sign(subject, { sid: sessionId });
    return {
      accessToken,
      refreshToken,
      authentication: copyWith(result.authentication, { payload: await this.options.tokenIssuer.verify(accessToken) }),
      user,
    };
  }

  /**
   * Logout: ends the bearer token's session, so its access and refresh tokens are refused from
   * now on (`?all=true`: every session of the token's user).
   */
  async remove(id: NullableId, params: Params = {}): Promise<AuthenticationResult> {
    const authentication = params.authentication;
    if (!isRecord(authentication) || typeof authentication.accessToken !== 'string')
      throw new NotAuthenticated(NO_STRATEGY);
    const result = await this.authenticate(authentication, params, 'jwt');
    if (result.user === undefined) throw new NotAuthenticated(SERVICE_CREDENTIAL_NO_LOGIN);
    if (id != null && String(id) !== result.accessToken) throw new NotAuthenticated('Invalid access token');
    const sessions = this.options.sessions;
    const sessionId = result.authentication.payload?.sid;
    if (sessions && typeof sessionId === 'string') {
      const all = params.query?.all;
      if (all === true || all === 'true') await sessions.endAllOf(this.subjectOf(result.user));
      else await sessions.end(sessionId);
    }
    return result;
  }

  /** A new access token and the next refresh token of the session a refresh token belongs to. */
  private async refresh(
    sessions: SessionRegistry,
    refreshToken: unknown,
    params: Params,
  ): Promise<AuthenticationResult> {
    const next = await sessions.refresh(refreshToken);
    const accessToken = await this.options.tokenIssuer.sign(next.userId, { sid: next.sessionId });
    // As any token is checked: the user must still exist (its answer is the user's view).
    const result = await this.authenticate({ strategy: 'jwt', accessToken }, params);
    return {
      accessToken,
      refreshToken: next.refreshToken,
      authentication: { strategy: REFRESH_STRATEGY, payload: result.authentication.payload },
      user: result.user,
    };
  }

  /**
   * Counts the attempt before any credential is checked, so a burst cannot pass a limit that
   * none of its attempts has reached yet. A token login is not limited: it checks no password
   * and a signed token cannot be guessed (and a burst of reconnecting sockets must not be refused).
   */
  private async reserveAttempt(data: unknown, params: Params): Promise<GrantedLoginAttempt | undefined> {
    if (!this.limiter || (isRecord(data) && data.strategy === 'jwt')) return undefined;
    const reservation = await this.limiter.reserve(this.attemptKeys(data, params));
    if (reservation.granted) return reservation;
    // `data.retryAfter` (seconds) is what the HTTP adapter turns into a `Retry-After` header.
    throw new TooManyRequests('Too many failed login attempts, try again later', {
      retryAfter: Math.ceil(reservation.retryAfterMs / 1000),
    });
  }

  /** The account is keyed as the users service spells addresses, so look-alike spellings share one allowance. */
  private attemptKeys(data: unknown, params: Params): LoginAttemptKeys {
    const email =
      isRecord(data) && typeof data.email === 'string' ? (normalizeEmailAddress(data.email) as string) : undefined;
    return { client: clientAddressOf(params), email: email || undefined };
  }

  private subjectOf(user: Record<string, any>): string {
    const field = this.options.entityId;
    const id = field ? user[field] : (user.id ?? user._id);
    if (id === undefined || id === null) throw new NotAuthenticated(`Can not set subject from user.${field ?? 'id'}`);
    return String(id);
  }

  private withoutHiddenFields(user: Record<string, any>): Record<string, any> {
    const hidden = this.options.hiddenFields ?? [];
    return isRecord(user) && hidden.length > 0 ? withoutFields(user, hidden) : user;
  }
}
