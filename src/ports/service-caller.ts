/**
 * What a service credential lets its holder call: service path -> the methods allowed there
 * (a null-prototype object, so a path such as `constructor` finds nothing it was not given).
 */
export type ServiceScopes = Readonly<Record<string, readonly string[]>>;

/** Another server calling this one with a service credential. */
export interface ServiceCallerInfo {
  name: string;
  credentialId: string;
  scopes: ServiceScopes;
}
