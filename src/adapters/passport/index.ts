export { BcryptPasswordHasher, type BcryptPasswordHasherOptions } from './bcrypt-password-hasher';
export { JsonWebTokenIssuer } from './jsonwebtoken-issuer';
export { JwtAuthenticationStrategy, type JwtStrategyOptions } from './jwt.strategy';
export { createJwtSettings, DEFAULT_JWT_OPTIONS, type JwtKeys, type JwtOptions, type JwtSettings } from './jwt-settings';
export { LocalAuthenticationStrategy, type LocalStrategyOptions } from './local.strategy';
export { runPassportStrategy, type MinimalRequest } from './passport-strategy-adapter';
export { signServiceCredential, SERVICE_CREDENTIAL_TYPE, type ServiceCaller } from './service-credential';
