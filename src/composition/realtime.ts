import type { Server } from 'node:http';
import { clientAddressSource } from '../adapters/http/client-address';
import { subscribeToRemoteEvents } from '../adapters/remote-events';
import { attachSocketTransport, type SocketTransport } from '../adapters/socketio';
import type { Application } from '../application/app/application';
import { channels } from '../application/channels/channels';
import { STANDARD_EVENTS } from '../application/channels/real-time-hub';
import { SESSION_REGISTRY, type SessionRegistry } from '../application/authentication/sessions/session-registry';
import { shareSessionEnds } from '../application/authentication/sessions/shared-session-ends';
import { configureSkeletonChannels } from '../application/services/realtime-policy';
import type { ServiceDefinition } from '../application/services/service-definition';
import type { LoggerPort } from '../ports/logger.port';
import type { AppConfig } from './app-config';
import { resolveAuthSecret } from './auth-secret';
import type { StorePlans } from './store-plan';
import type { Telemetry } from './telemetry';

export interface Realtime {
  /** Serves the socket transport on `server` (once). */
  attach(server: Server): SocketTransport;
  /** Disconnects every socket and leaves the bus. */
  close(): Promise<void>;
}

/**
 * Channels, the skeleton's channel policy and, with `REDIS_URL`, the bus to the other
 * instances (service events), and a second one for ended sessions, whose connections become
 * anonymous on every instance. The socket transport is attached once the HTTP server exists.
 */
export function wireRealtime(
  app: Application,
  config: AppConfig,
  logger: LoggerPort,
  definitions: readonly ServiceDefinition[],
  plans: StorePlans,
  { tracer, metrics }: Telemetry,
): Realtime {
  app.configure(channels({ logger }));
  configureSkeletonChannels(app, definitions);
  // Events resume on any instance when they go through the shared log; without resuming, pub/sub is enough.
  const resumes = config.eventsResume.windowMs > 0;
  const log =
    config.redisUrl && resumes
      ? new (redisAdapter().RedisEventLog)({
          url: config.redisUrl,
          logger,
          tracer,
          metrics,
          keepMs: 2 * config.eventsResume.windowMs,
          maxEvents: config.eventsResume.maxLogEvents,
        })
      : undefined;
  const resumeSessions =
    config.redisUrl && resumes
      ? new (redisAdapter().RedisResumeSessions)({ url: config.redisUrl, secret: resolveAuthSecret(config) })
      : undefined;
  const bus =
    config.redisUrl && !log
      ? new (redisAdapter().RedisEventBus)({ url: config.redisUrl, logger, tracer, metrics })
      : undefined;
  if (bus) app.realtime!.attachBus(bus);
  if (log) {
    app.realtime!.attachLog(log);
    log
      .start()
      .catch((error: Error) => logger.error({ err: error.message }, 'event log (redis): reading it could not start'));
  }
  // Services bound to another server: their events come from that server, for this server's own
  // publishers and policies to deliver (see registerService: calls through the binding emit none here).
  const subscriptions = definitions.flatMap((definition) => {
    const plan = plans.of(definition.path);
    if (plan.store !== 'remote' || plan.remote.token === undefined) return [];
    return [
      subscribeToRemoteEvents(
        {
          url: plan.remote.url,
          credential: plan.remote.token,
          path: definition.path,
          events: [...STANDARD_EVENTS, ...(definition.events ?? [])],
          onEvent: (event, data, identity) => app.realtime!.republish(definition.path, event, data, identity),
        },
        logger,
      ),
    ];
  });
  const sessions = app.get<SessionRegistry | undefined>(SESSION_REGISTRY);
  sessions?.onEnded((sessionIds) => app.realtime!.endSessions(sessionIds));
  const sessionsBus =
    sessions && config.redisUrl
      ? new (redisAdapter().RedisEventBus)({ url: config.redisUrl, logger, channel: 'hexa-services:sessions-ended' })
      : undefined;
  if (sessions && sessionsBus) shareSessionEnds(sessions, sessionsBus, app.realtime!.instanceId);
  let transport: SocketTransport | undefined;
  return {
    attach(server) {
      if (transport) return transport;
      transport = attachSocketTransport(app, server, {
        logger,
        production: config.nodeEnv === 'production',
        corsOrigins: config.corsOrigins,
        clientAddress: config.trustProxy === undefined ? undefined : clientAddressSource(config.trustProxy),
        maxCallsInFlight: config.socketMaxCallsInFlight,
        resume: config.eventsResume,
        sharedResume: log && resumeSessions ? { log, sessions: resumeSessions } : undefined,
        tracer,
        metrics,
      });
      return transport;
    },
    async close() {
      for (const subscription of subscriptions) subscription.close();
      await transport?.close();
      await bus?.close();
      await log?.close();
      await resumeSessions?.close();
      await sessionsBus?.close();
    },
  };
}

/** ioredis loads only for an application with `REDIS_URL`. */
function redisAdapter(): typeof import('../adapters/redis') {
  return require('../adapters/redis') as typeof import('../adapters/redis');
}
