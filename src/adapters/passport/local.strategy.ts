import { randomBytes } from 'node:crypto';
import { Strategy as PassportLocalStrategy } from 'passport-local';
import { NotAuthenticated, NotFound } from '../../domain/errors';
import { isPaginated } from '../../domain/paginated';
import type { Id } from '../../domain/id';
import type {
  AuthenticationRequest,
  AuthenticationResult,
  AuthenticationStrategyPort,
} from '../../ports/authentication-strategy.port';
import type { LoggerPort } from '../../ports/logger.port';
import type { PasswordHasherPort } from '../../ports/password-hasher.port';
import type { Params } from '../../ports/service-params';
import type { ServicePort } from '../../ports/service.port';
import { REPLACED_HASH_PARAM } from '../../application/authentication/hash-password.hook';
import { internalCallParams } from '../../application/observability/internal-call-params';
import { traceLogFields } from '../../application/observability/trace-log-fields';
import type { TracerPort } from '../../ports/tracer.port';
import { runPassportStrategy, type MinimalRequest } from './passport-strategy-adapter';

export interface LocalStrategyOptions {
  /** The users service, looked up per call (it may be registered after the strategy). */
  users: () => Pick<ServicePort, 'find' | 'patch'>;
  passwordHasher: PasswordHasherPort;
  /** Told when a stored hash could not be upgraded (the login succeeds all the same). */
  logger?: Pick<LoggerPort, 'warn'>;
  /** Gives that line the login's trace ids, when tracing is on. */
  tracer?: Pick<TracerPort, 'logFields'>;
  /** Request and record field of the login name. Default 'email'. */
  usernameField?: string;
  /** Request and record field of the password (the record holds its hash). Default 'password'. */
  passwordField?: string;
  /** The one message of every failure. Default 'Invalid login'. */
  errorMessage?: string;
  /** Longer values fail without a lookup. Defaults 320 and 1024 characters. */
  maxUsernameLength?: number;
  maxPasswordLength?: number;
}

type UserRecord = Record<string, any>;

/** A login as passport sees it, with the params of the call it is made for: the user's lookup is part of that call. */
type LoginRequest = MinimalRequest & { callParams: Params };

/**
 * Email/password login with passport-local. Credentials must be non-empty strings before
 * anything is looked up (an object such as `{ "$ne": null }` never reaches a query), and an
 * unknown user is compared against a dummy hash, so both failures look and take the same. After
 * a successful login, a hash of an older algorithm or cost is replaced by a fresh one.
 */
export class LocalAuthenticationStrategy implements AuthenticationStrategyPort {
  readonly name = 'local';
  private readonly usernameField: string;
  private readonly passwordField: string;
  private readonly errorMessage: string;
  private readonly passport: PassportLocalStrategy;
  private readonly dummyHash: Promise<string>;

  constructor(private readonly options: LocalStrategyOptions) {
    this.usernameField = options.usernameField ?? 'email';
    this.passwordField = options.passwordField ?? 'password';
    this.errorMessage = options.errorMessage ?? 'Invalid login';
    this.passport = new PassportLocalStrategy(
      { usernameField: this.usernameField, passwordField: this.passwordField, session: false, passReqToCallback: true },
      (request, username, password, done) => {
        this.verify(username, password, (request as unknown as LoginRequest).callParams).then(
          (user) => done(null, user),
          (error: Error) => done(error),
        );
      },
    );
    // Made once, at the configured cost, so the first unknown-user login is not slower than the rest.
    this.dummyHash = options.passwordHasher.hash(randomBytes(24).toString('base64'));
    this.dummyHash.catch(() => undefined);
  }

  async authenticate(data: AuthenticationRequest, params: Params = {}): Promise<AuthenticationResult> {
    const username = data[this.usernameField];
    const password = data[this.passwordField];
    if (
      !this.isCredential(username, this.options.maxUsernameLength ?? 320) ||
      !this.isCredential(password, this.options.maxPasswordLength ?? 1024)
    ) {
      throw new NotAuthenticated(this.errorMessage);
    }
    const request: LoginRequest = {
      body: { [this.usernameField]: username, [this.passwordField]: password },
      headers: {},
      callParams: params,
    };
    const { user } = await runPassportStrategy<UserRecord>(
      this.passport,
      request,
      () => new NotAuthenticated(this.errorMessage),
    );
    return { authentication: { strategy: this.name }, user };
  }

  private isCredential(value: unknown, maxLength: number): value is string {
    return typeof value === 'string' && value.length > 0 && value.length <= maxLength;
  }

  private async verify(username: string, password: string, callParams: Params): Promise<UserRecord | false> {
    const user = await this.findUser(username, callParams);
    const stored = user?.[this.passwordField];
    const hash = typeof stored === 'string' ? stored : undefined;
    // Always one full compare: against the dummy hash when there is no user or no hash.
    const matches = await this.options.passwordHasher.compare(password, hash ?? (await this.dummyHash));
    if (!user || hash === undefined || !matches) return false;
    if (this.options.passwordHasher.needsRehash(hash)) await this.upgradeHash(user, password, hash, callParams);
    return user;
  }

  /**
   * Stores a fresh hash of the password just verified. The plain password goes through the users
   * service's patch (an internal call), whose hook hashes it: one hash, made where every stored
   * password is made, and no path by which a value that is already a hash could be stored. The
   * patch applies only while the record still holds the hash that was verified: a password
   * changed while this login compared (or hashed) is not overwritten by the old one. A failed
   * upgrade (validation of an old short password, a busy hasher, the database) does not fail the
   * login: the next login tries again.
   */
  private async upgradeHash(
    user: UserRecord,
    password: string,
    verifiedHash: string,
    callParams: Params,
  ): Promise<void> {
    const id = (user.id ?? user._id) as Id | undefined;
    if (id === undefined || id === null) return;
    try {
      await this.options.users().patch!(
        id,
        { [this.passwordField]: password },
        internalCallParams(callParams, { [REPLACED_HASH_PARAM]: verifiedHash }),
      );
    } catch (error) {
      // The hash changed since it was read: the newer password stands, and it was hashed as they all are now.
      if (error instanceof NotFound) return;
      const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
      this.options.logger?.warn(
        { userId: String(id), error: { name, message }, ...traceLogFields(this.options.tracer, callParams) },
        'could not upgrade a stored password hash',
      );
    }
  }

  private async findUser(username: string, callParams: Params): Promise<UserRecord | undefined> {
    // An internal call (no provider): the users service's hooks let it through and keep the hash.
    const found = await this.options.users().find!(
      internalCallParams(callParams, { query: { [this.usernameField]: username, $limit: 1 }, paginate: false }),
    );
    const list = isPaginated(found) ? found.data : found;
    return Array.isArray(list) && list.length > 0 ? (list[0] as UserRecord) : undefined;
  }
}
