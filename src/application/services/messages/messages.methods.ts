import type { Params } from '../../../ports/service-params';
import type { ServiceMethods } from '../../../ports/service.port';

export const MESSAGES_METHODS = ['find', 'get', 'create', 'update', 'patch', 'remove', 'markRead'] as const;

/**
 * The messages service: a store adapter plus the custom method `markRead`. The store stays the
 * prototype, so every standard method is the store's own.
 */
export function withMessageMethods<S extends ServiceMethods>(store: S): S & { markRead(data: { id: string }, params?: Params): Promise<unknown> } {
  return Object.assign(Object.create(store) as S, {
    markRead(this: S, data: { id: string }, params: Params = {}) {
      // Hooks may narrow which messages qualify (e.g. the owner rule) through params.query.
      return this.patch(data.id, { read: true }, { ...params, query: params.query ?? {} });
    },
  });
}
