import type { ServiceIdentifier } from 'inversify';
import type { JwtSettings } from '../adapters/passport';
import type { Application } from '../application/app/application';
import type { ServiceDefinition } from '../application/services/service-definition';
import type { LoggerPort } from '../ports/logger.port';
import type { PasswordHasherPort } from '../ports/password-hasher.port';
import type { ServiceMethods } from '../ports/service.port';
import type { TokenIssuerPort } from '../ports/token-issuer.port';
import type { AppConfig } from './app-config';
import type { DatabaseConnection } from './database-connection';
import type { RemoteBinding } from './remote-binding';

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
    /** Every service's definition, in registration order. */
    definitions: token<readonly ServiceDefinition[]>('services.definitions'),
    /** The services bound to another server (`<NAME>_REMOTE_URL`), by path: their stores and health. */
    remoteBindings: token<ReadonlyMap<string, RemoteBinding>>('services.remoteBindings'),
    /** Makes a definition's store: local collection, memory, or a remote server, by configuration. */
    storeFor: token<(definition: ServiceDefinition) => ServiceMethods>('services.storeFor'),
  },
  auth: {
    /** Keys and options shared by token signing and verification. */
    jwtSettings: token<JwtSettings>('auth.jwtSettings'),
    tokenIssuer: token<TokenIssuerPort>('auth.tokenIssuer'),
    passwordHasher: token<PasswordHasherPort>('auth.passwordHasher'),
    /** Registers the authentication service (and its strategies) on an app. */
    configure: token<(app: Application) => void>('auth.configure'),
  },
  /** The application with every service registered and hooked. */
  app: token<Application>('app'),
} as const;
