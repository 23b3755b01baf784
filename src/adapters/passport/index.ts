export { JsonWebTokenIssuer } from './jsonwebtoken-issuer';
export {
  JwtAuthenticationStrategy,
  type JwtStrategyOptions,
  type ServiceCredentialChecks,
  type SessionChecks,
} from './jwt.strategy';
export {
  createJwtSettings,
  DEFAULT_JWT_OPTIONS,
  type JwtKeys,
  type JwtOptions,
  type JwtSettings,
} from './jwt-settings';
export { LocalAuthenticationStrategy, type LocalStrategyOptions } from './local.strategy';
export { runPassportStrategy, type MinimalRequest } from './passport-strategy-adapter';
export {
  DEFAULT_PASSWORD_HASH_COST,
  PASSWORD_HASH_COST_RANGE,
  ScryptPasswordHasher,
  type ScryptPasswordHasherOptions,
} from './scrypt-password-hasher';
export {
  signServiceCredential,
  SERVICE_CREDENTIAL_TYPE,
  UnscopedServiceCredential,
  type ServiceCaller,
} from './service-credential';
