import type { HookContext } from '../hooks/hook-context';
import type { HookMap } from '../hooks/hook-types';

/** Results carry access tokens: they are never published as service events. */
function suppressEvents(context: HookContext): void {
  context.event = null;
}

export function authenticationHooks(): HookMap {
  return { before: { all: [suppressEvents] } };
}
