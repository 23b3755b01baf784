import type { Application } from '../../../application/app/application';
import { isAuthenticateHook } from '../../../application/authentication/authenticate.hook';

/**
 * Which calls need a bearer token, read from the hooks registered on `app` (not restated in the
 * definitions): a method needs one when an `authenticate(...)` hook guards it, as an around or a
 * before hook, for the method or for `all`. Hooks that wrap `authenticate` conditionally are not
 * recognised.
 */
export function tokenRequirements(app: Application): (path: string, method: string) => boolean {
  const services = new Map(app.entries().map((entry) => [entry.path, entry]));
  return (path, method) => {
    const entry = services.get(path);
    if (!entry) return false;
    return [...entry.hooks.collect('around', method), ...entry.hooks.collect('before', method)].some(
      isAuthenticateHook,
    );
  };
}
