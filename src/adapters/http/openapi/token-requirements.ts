import type { Application } from '../../../application/app/application';
import { isAuthenticateHook } from '../../../application/authentication/authenticate.hook';
import { labelOf } from '../../../application/lifecycle/stage-label';

/**
 * Which calls need a bearer token, read from the hooks registered on `app` (not restated in the
 * definitions): a method needs one when an `authenticate(...)` hook guards it, as an around or a
 * before hook, for the method or for `all`, or a stage's layer does (the `authenticate` stage, or a
 * definition's own hooks with an `authenticate` among them). Hooks that wrap `authenticate` conditionally are not
 * recognised.
 */
export function tokenRequirements(app: Application): (path: string, method: string) => boolean {
  const services = new Map(app.entries().map((entry) => [entry.path, entry]));
  return (path, method) => {
    const entry = services.get(path);
    if (!entry) return false;
    const around = entry.hooks.collect('around', method);
    return (
      around.some((hook) => isAuthenticateHook(hook) || labelOf(hook, method)?.authenticates === true) ||
      entry.hooks.collect('before', method).some(isAuthenticateHook)
    );
  };
}
