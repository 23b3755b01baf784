/** The server entry point (`<package>`): everything in `./client`, plus the server-side adapters. */
export * from './client';
export { AdapterBase } from './application/adapter/adapter-base';
export { filterQuery } from './application/query/filter-query';
export { protectFields } from './application/hooks/protect-fields.hook';
export { validateData } from './application/validation/validate-data.hook';
export { validateQuery } from './application/validation/validate-query.hook';
export * from './adapters/memory';
export * from './adapters/mongo';
export * from './adapters/http';
export * from './adapters/passport';
export { authenticate } from './application/authentication/authenticate.hook';
export { hashPassword } from './application/authentication/hash-password.hook';
export { restrictToSelf } from './application/authentication/restrict-to-self.hook';
export { AuthenticationService } from './application/authentication/authentication.service';
export { startEmbeddedMongo } from './embedded-mongo';
export type { EmbeddedMongo, EmbeddedMongoLogger, HostedEmbeddedMongoOptions } from './embedded-mongo';
export { composeApplication, listen } from './composition-root';
export { loadConfig, ConfigError } from './composition/load-config';
