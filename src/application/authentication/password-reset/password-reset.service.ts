import { BadRequest, NotFound, TooManyRequests } from '../../../domain/errors';
import { isPaginated } from '../../../domain/paginated';
import { isRecord } from '../../../domain/plain-record';
import type { LoggerPort } from '../../../ports/logger.port';
import type { MailerPort } from '../../../ports/mailer.port';
import type { RequestRateLimiterPort } from '../../../ports/request-rate-limiter.port';
import type { Params } from '../../../ports/service-params';
import type { ServicePort } from '../../../ports/service.port';
import { normalizeEmailAddress } from '../../services/users/email-address';
import { clientAddressOf } from '../client-address';
import { hashOpaqueToken, idOfOpaqueToken, newOpaqueToken, sha256Hex } from '../sessions/opaque-token';
import type { SessionRegistry } from '../sessions/session-registry';
import type { PasswordResetRecord } from './password-reset-record';
import { traceLogFields } from '../../observability/trace-log-fields';
import type { TracerPort } from '../../../ports/tracer.port';

/** Where the service is registered: `POST /password-resets`. */
export const PASSWORD_RESETS_PATH = 'password-resets';

/** The request limiter's actions: reset requests per client address, and per e-mail address asked about. */
export const PASSWORD_RESET_PER_CLIENT = 'password-reset';
export const PASSWORD_RESET_PER_ADDRESS = 'password-reset-address';

/** The one answer to every well-formed reset request, whether the address has an account or not. */
export const RESET_REQUESTED = Object.freeze({
  message:
    'If this address belongs to an account, a link to choose a new password has been sent to it. The link works ' +
    'once, within an hour.',
});
const RESET_DONE = Object.freeze({
  message: 'The password has been changed and every session of the account has ended: log in with the new password.',
});
const INVALID_LINK = 'This reset link is invalid, used or expired: ask for a new one';

export interface PasswordResetOptions {
  /** The reset links' store (internal calls). */
  tokens: () => ServicePort;
  /** The users service (internal calls: its hooks hash the new password). */
  users: () => ServicePort;
  sessions: SessionRegistry;
  mailer: MailerPort;
  /** The limiter of requests per client and per address; none: not limited. */
  limiter?: () => RequestRateLimiterPort | undefined;
  /** The page the link opens; the token follows in the fragment (`#token=`), which browsers never send to a server. */
  resetUrl: string;
  identity: { loginField: string; passwordField: string };
  logger?: LoggerPort;
  /** Gives a failed mail's log line the request's trace ids, when tracing is on. */
  tracer?: Pick<TracerPort, 'logFields'>;
  /** How long a link works. Default 1 hour. */
  ttlMs?: number;
  now?: () => number;
}

/**
 * `POST /password-resets`: `{ email }` asks for a link (the same answer, at once, whether or not
 * the address has an account; the mail goes out after the answer, so its time tells nothing),
 * throttled per client and per address; `{ token, password }` uses one: once, within the hour,
 * and every session of the account ends.
 */
export class PasswordResetService {
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PasswordResetOptions) {
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.now = options.now ?? Date.now;
  }

  async create(data: unknown, params: Params = {}): Promise<Record<string, string>> {
    if (isRecord(data) && data.token !== undefined) return this.reset(data.token, data.password);
    if (!isRecord(data) || typeof data.email !== 'string' || data.email === '' || data.email.length > 320) {
      throw new BadRequest('Invalid data', { errors: { email: ['email must be the address of the account'] } });
    }
    const email = normalizeEmailAddress(data.email) as string;
    await this.throttle(PASSWORD_RESET_PER_CLIENT, clientAddressOf(params) ?? 'unknown');
    // Counted under the address's hash: a shared limiter's store (Redis) never holds the address.
    await this.throttle(PASSWORD_RESET_PER_ADDRESS, await sha256Hex(email));
    const user = await this.userByEmail(email);
    if (user) void this.sendLink(user, email, params);
    return { ...RESET_REQUESTED };
  }

  private async reset(token: unknown, password: unknown): Promise<Record<string, string>> {
    if (typeof password !== 'string')
      throw new BadRequest('Invalid data', { errors: { password: ['password must be a string'] } });
    const id = idOfOpaqueToken(token);
    const record = id === undefined ? undefined : await this.read(id);
    const tokenHash = record ? await hashOpaqueToken(token as string) : undefined;
    if (!record || tokenHash !== record.tokenHash || new Date(record.expiresAt).getTime() <= this.now())
      throw new BadRequest(INVALID_LINK);
    try {
      // Spent before anything else: of two uses of one link, one wins.
      await this.options.tokens().remove!(record._id, { query: { tokenHash } });
    } catch (error) {
      if (error instanceof NotFound) throw new BadRequest(INVALID_LINK);
      throw error;
    }
    try {
      await this.options.users().patch!(record.userId, { [this.options.identity.passwordField]: password }, {});
    } catch (error) {
      // A password the rules refuse leaves the link usable for a better one.
      if (error instanceof BadRequest) await this.options.tokens().create!({ ...record }, {});
      throw error;
    }
    await this.options.sessions.endAllOf(record.userId);
    return { ...RESET_DONE };
  }

  private async sendLink(user: Record<string, unknown>, email: string, params: Params): Promise<void> {
    const userId = String(user._id ?? user.id);
    try {
      const created = (await this.options.tokens().create!(
        { userId, tokenHash: '', expiresAt: new Date(this.now() + this.ttlMs) },
        {},
      )) as PasswordResetRecord;
      const token = newOpaqueToken(created._id);
      await this.options.tokens().patch!(created._id, { tokenHash: await hashOpaqueToken(token) }, {});
      await this.options.mailer.send({
        to: email,
        subject: 'Choose a new password',
        text: [
          'Someone (you, we hope) asked to choose a new password for this account.',
          `Open this link within an hour to choose it; it works once: ${this.options.resetUrl}#token=${token}`,
          'If it was not you, ignore this mail: your password stays as it is.',
        ].join('\n\n'),
      });
    } catch (error) {
      // The caller has had the answer already; the failure is logged without the address's secrets.
      this.options.logger?.error(
        {
          userId,
          err: error instanceof Error ? error.message : String(error),
          ...traceLogFields(this.options.tracer, params),
        },
        'could not send a password reset link',
      );
    }
  }

  private async throttle(action: string, key: string): Promise<void> {
    const limiter = this.options.limiter?.();
    if (!limiter) return;
    const waitMs = await limiter.consume(action, key);
    if (waitMs > 0)
      throw new TooManyRequests('Too many password reset requests, try again later', {
        retryAfter: Math.ceil(waitMs / 1000),
      });
  }

  private async userByEmail(email: string): Promise<Record<string, unknown> | undefined> {
    const found = await this.options.users().find!({
      query: { [this.options.identity.loginField]: email, $limit: 1 },
      paginate: false,
    });
    const list = isPaginated(found) ? found.data : found;
    return Array.isArray(list) && list.length > 0 ? (list[0] as Record<string, unknown>) : undefined;
  }

  private async read(id: string): Promise<PasswordResetRecord | undefined> {
    try {
      return (await this.options.tokens().get!(id, {})) as PasswordResetRecord;
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
  }
}
