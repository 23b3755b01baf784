import type { Server } from 'node:http';
import { serveChatPage } from '../adapters/chat-page';
import { clientAddressSource } from '../adapters/http/client-address';
import { attachSocketTransport, type SocketTransport } from '../adapters/socketio';
import type { Application } from '../application/app/application';
import { channels } from '../application/channels/channels';
import { configureSkeletonChannels } from '../application/services/realtime-policy';
import type { ServiceDefinition } from '../application/services/service-definition';
import type { LoggerPort } from '../ports/logger.port';
import type { AppConfig } from './app-config';
import { requestLimits, type AuthenticationOptions } from './modules/authentication.module';

export interface Realtime {
  /** Serves the socket transport and the live chat page (`/`) on `server` (once). */
  attach(server: Server): SocketTransport;
  /** Disconnects every socket and leaves the bus. */
  close(): Promise<void>;
}

/**
 * Channels, the skeleton's channel policy and, with `REDIS_URL`, the bus to the other
 * instances. The socket transport is attached once the HTTP server exists.
 */
export function wireRealtime(app: Application, config: AppConfig, logger: LoggerPort, definitions: readonly ServiceDefinition[]): Realtime {
  app.configure(channels({ logger }));
  configureSkeletonChannels(app, definitions);
  const bus = config.redisUrl ? new (redisAdapter().RedisEventBus)({ url: config.redisUrl, logger }) : undefined;
  if (bus) app.realtime!.attachBus(bus);
  let transport: SocketTransport | undefined;
  return {
    attach(server) {
      if (transport) return transport;
      serveChatPage(server, logger);
      transport = attachSocketTransport(app, server, { logger, production: config.nodeEnv === 'production', corsOrigins: config.corsOrigins, clientAddress: config.trustProxy === undefined ? undefined : clientAddressSource(config.trustProxy), maxCallsInFlight: config.socketMaxCallsInFlight });
      return transport;
    },
    async close() {
      await transport?.close();
      await bus?.close();
    },
  };
}

/**
 * With `REDIS_URL`, failed logins and the per-address request limits (sign-up) count across
 * instances: the authentication options with the shared limiters; otherwise undefined (each
 * process counts in memory).
 */
export function sharedLoginRateLimiter(config: AppConfig, options: AuthenticationOptions = {}): { authentication: AuthenticationOptions; close(): Promise<void> } | undefined {
  const shareLogins = options.rateLimit !== false && !options.rateLimiter;
  const limits = options.requestRateLimiter ? undefined : requestLimits(config, options);
  if (!config.redisUrl || (!shareLogins && !limits)) return undefined;
  const { createRedisClient, closeRedisClient, RedisLoginRateLimiter, RedisRequestRateLimiter } = redisAdapter();
  const client = createRedisClient(config.redisUrl);
  client.on('error', () => undefined); // the limiters fall back to memory; the event bus logs outages
  const rateLimiter = !shareLogins ? options.rateLimiter : new RedisLoginRateLimiter(client, {
    maxFailuresPerEmail: config.auth.maxLoginFailuresPerEmail,
    maxFailuresPerClient: config.auth.maxLoginFailuresPerClient,
    windowMs: config.auth.loginWindowMs,
    ...(options.rateLimit || {}),
  });
  const requestRateLimiter = limits ? new RedisRequestRateLimiter(client, limits) : options.requestRateLimiter;
  return { authentication: { ...options, rateLimiter, requestRateLimiter }, close: () => closeRedisClient(client) };
}

/** ioredis and rate-limiter-flexible load only for an application with `REDIS_URL`. */
function redisAdapter(): typeof import('../adapters/redis') {
  return require('../adapters/redis') as typeof import('../adapters/redis');
}
