import { NotAuthenticated, TooManyRequests } from '../../domain/errors';
import type { NullableId } from '../../domain/id';
import type { AuthenticationRequest, AuthenticationResult, AuthenticationStrategyPort } from '../../ports/authentication-strategy.port';
import type { Params } from '../../ports/service-params';
import type { TokenIssuerPort } from '../../ports/token-issuer.port';
import { normalizeEmailAddress } from '../services/users/email-address';
import { clientAddressOf } from './client-address';
import type { GrantedLoginAttempt, LoginAttemptKeys, LoginRateLimiterPort } from '../../ports/login-rate-limiter.port';
import { LoginRateLimiter, type LoginRateLimitOptions } from './login-rate-limiter';
import { isRecord, withoutFields } from '../../domain/plain-record';

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
}

const NO_STRATEGY = 'Invalid authentication information (no `strategy` set)';
const SERVICE_CREDENTIAL_NO_LOGIN = 'A service credential authenticates calls from another server; it cannot log in or out';

/**
 * `POST /authentication` (`create`): authenticates with a named strategy and returns
 * `{ accessToken, authentication: { strategy, payload }, user }`; a `jwt` request returns the
 * token it was given (a re-login never extends a token). `DELETE /authentication` (`remove`)
 * checks the bearer token and returns the same shape. `authenticate` serves the hook.
 */
export class AuthenticationService {
  private readonly strategies = new Map<string, AuthenticationStrategyPort>();
  private readonly authStrategies: string[];
  private readonly limiter?: LoginRateLimiterPort;

  constructor(private readonly options: AuthenticationServiceOptions) {
    for (const strategy of options.strategies) this.strategies.set(strategy.name, strategy);
    this.authStrategies = options.authStrategies ?? [...this.strategies.keys()];
    if (options.rateLimit !== false) this.limiter = options.rateLimiter ?? new LoginRateLimiter(options.rateLimit ?? {}, options.now);
  }

  /** Authenticates `data` with one of `allowed` (all registered when empty); the user comes back without hidden fields. */
  async authenticate(data: unknown, params: Params = {}, ...allowed: string[]): Promise<AuthenticationResult> {
    if (!isRecord(data) || typeof data.strategy !== 'string' || data.strategy === '') throw new NotAuthenticated(NO_STRATEGY);
    if (allowed.length > 0 && !allowed.includes(data.strategy)) {
      throw new NotAuthenticated('Invalid authentication information (strategy not allowed in authStrategies)');
    }
    const strategy = this.strategies.get(data.strategy);
    if (!strategy) throw new NotAuthenticated('Invalid authentication information');
    // Strategies look users up with internal calls: the caller's transport fields stay out.
    const { provider: _p, authentication: _a, authenticated: _d, query: _q, ...rest } = params;
    const result = await strategy.authenticate(data as AuthenticationRequest, rest);
    return result.user === undefined ? result : { ...result, user: this.withoutHiddenFields(result.user) };
  }

  async create(data: unknown, params: Params = {}): Promise<AuthenticationResult> {
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
    if (attempt) await this.limiter?.succeeded(attempt);
    if (result.accessToken) return result;
    const accessToken = await this.options.tokenIssuer.sign(this.subjectOf(user));
    const payload = await this.options.tokenIssuer.verify(accessToken);
    return { accessToken, authentication: { ...result.authentication, payload }, user };
  }

  /** Logout: there is no server-side revocation, so this checks the bearer token and echoes the result. */
  async remove(id: NullableId, params: Params = {}): Promise<AuthenticationResult> {
    const authentication = params.authentication;
    if (!isRecord(authentication) || typeof authentication.accessToken !== 'string') throw new NotAuthenticated(NO_STRATEGY);
    const result = await this.authenticate(authentication, params, 'jwt');
    if (result.user === undefined) throw new NotAuthenticated(SERVICE_CREDENTIAL_NO_LOGIN);
    if (id != null && String(id) !== result.accessToken) throw new NotAuthenticated('Invalid access token');
    return result;
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
    throw new TooManyRequests('Too many failed login attempts, try again later', { retryAfter: Math.ceil(reservation.retryAfterMs / 1000) });
  }

  /** The account is keyed as the users service spells addresses, so look-alike spellings share one allowance. */
  private attemptKeys(data: unknown, params: Params): LoginAttemptKeys {
    const email = isRecord(data) && typeof data.email === 'string' ? (normalizeEmailAddress(data.email) as string) : undefined;
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
