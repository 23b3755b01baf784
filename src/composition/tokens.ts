import type { ServiceIdentifier } from 'inversify';
import type { Application } from '../application/app/application';
import type { LoggerPort } from '../ports/logger.port';
import type { ServiceMethods } from '../ports/service.port';
import type { AppConfig } from './app-config';
import type { DatabaseConnection } from './database-connection';

const token = <T>(name: string) => Symbol(name) as ServiceIdentifier<T>;

/** Every binding key of the container, one per role, grouped by area. */
export const Tokens = {
  /** The validated configuration. */
  config: token<AppConfig>('config'),
  infrastructure: {
    /** The process logger (pino). */
    logger: token<LoggerPort & { child(bindings: object): LoggerPort }>('infrastructure.logger'),
    /** The MongoDB connection (embedded server or MONGODB_URL); bound only when a service needs it. */
    database: token<DatabaseConnection>('infrastructure.database'),
  },
  services: {
    /** The users store: local collection, memory, or a remote server. */
    users: token<ServiceMethods>('services.users'),
    /** The messages store: local collection, memory, or a remote server. */
    messages: token<ServiceMethods>('services.messages'),
  },
  /** The application with every service registered and hooked. */
  app: token<Application>('app'),
} as const;
