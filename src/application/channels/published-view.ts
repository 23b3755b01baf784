import type { HookContext } from '../hooks/hook-context';
import { mapRoutePlaceholders } from '../app/route-placeholders';

/**
 * What an event carries: the record as REST would answer it. A hook that hides fields sets
 * `context.dispatch` (for arrays, item by item), so the emitted `item` is looked up in it.
 */
export function publishedView(item: unknown, context?: HookContext): unknown {
  const dispatch = context?.dispatch;
  if (dispatch === undefined) return item;
  const result = context!.result;
  if (Array.isArray(result)) {
    if (!Array.isArray(dispatch)) return item;
    const index = result.indexOf(item);
    return index === -1 ? item : dispatch[index];
  }
  return result === item && !Array.isArray(dispatch) ? dispatch : item;
}

/** `rooms/:roomId/echo` with `{ roomId: '7' }` is `rooms/7/echo`: clients listen on concrete paths. */
export function concretePath(template: string, route?: Record<string, unknown>): string {
  return mapRoutePlaceholders(template, (name, segment) => {
    const value = route?.[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : segment;
  });
}
