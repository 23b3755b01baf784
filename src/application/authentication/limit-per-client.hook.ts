import { TooManyRequests } from '../../domain/errors';
import type { RequestRateLimiterPort } from '../../ports/request-rate-limiter.port';
import type { HookContext } from '../hooks/hook-context';
import { clientAddressOf } from './client-address';

/** The app setting holding the request limiter; the composition sets it unless limits are off. */
export const REQUEST_RATE_LIMITER = 'requestRateLimiter';

/** The actions the composition configures limits for. */
export const SIGN_UP = 'sign-up';

/**
 * A before hook limiting external calls (`params.provider` set) per client address with the
 * app's request limiter (in memory, or shared through Redis with `REDIS_URL`): past the limit
 * the call is a 429 with `data.retryAfter` (the HTTP adapter's `Retry-After`). Internal calls
 * are never limited. For any action with a configured limit (sign-up, a password reset, ...).
 */
export function limitPerClient(action: string) {
  return async function limitRequestsPerClient(context: HookContext): Promise<void> {
    if (!context.params.provider) return;
    const limiter = (context.app as { get?(name: string): unknown } | undefined)?.get?.(REQUEST_RATE_LIMITER) as
      RequestRateLimiterPort | undefined;
    if (!limiter) return;
    const waitMs = await limiter.consume(action, clientAddressOf(context.params) ?? 'unknown');
    if (waitMs > 0)
      throw new TooManyRequests(`Too many ${action} requests from this address, try again later`, {
        retryAfter: Math.ceil(waitMs / 1000),
      });
  };
}

/** Sign-up (`create` on users) per client address. */
export const limitSignUps = limitPerClient(SIGN_UP);
