import type { Server } from 'node:http';
import { clientAddressSource } from '../adapters/http/client-address';
import { attachSocketTransport, type SocketTransport } from '../adapters/socketio';
import type { Application } from '../application/app/application';
import { channels } from '../application/channels/channels';
import { configureSkeletonChannels } from '../application/services/realtime-policy';
import type { ServiceDefinition } from '../application/services/service-definition';
import type { LoggerPort } from '../ports/logger.port';
import type { AppConfig } from './app-config';
import type { Telemetry } from './telemetry';

export interface Realtime {
  /** Serves the socket transport on `server` (once). */
  attach(server: Server): SocketTransport;
  /** Disconnects every socket and leaves the bus. */
  close(): Promise<void>;
}

/**
 * Channels, the skeleton's channel policy and, with `REDIS_URL`, the bus to the other
 * instances. The socket transport is attached once the HTTP server exists.
 */
export function wireRealtime(app: Application, config: AppConfig, logger: LoggerPort, definitions: readonly ServiceDefinition[], { tracer, metrics }: Telemetry): Realtime {
  app.configure(channels({ logger }));
  configureSkeletonChannels(app, definitions);
  const bus = config.redisUrl ? new (redisAdapter().RedisEventBus)({ url: config.redisUrl, logger, tracer, metrics }) : undefined;
  if (bus) app.realtime!.attachBus(bus);
  let transport: SocketTransport | undefined;
  return {
    attach(server) {
      if (transport) return transport;
      transport = attachSocketTransport(app, server, { logger, production: config.nodeEnv === 'production', corsOrigins: config.corsOrigins, clientAddress: config.trustProxy === undefined ? undefined : clientAddressSource(config.trustProxy), maxCallsInFlight: config.socketMaxCallsInFlight, tracer, metrics });
      return transport;
    },
    async close() {
      await transport?.close();
      await bus?.close();
    },
  };
}

/** ioredis loads only for an application with `REDIS_URL`. */
function redisAdapter(): typeof import('../adapters/redis') {
  return require('../adapters/redis') as typeof import('../adapters/redis');
}
