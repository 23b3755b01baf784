import { isPaginated } from '../../domain/paginated';
import { copyWith, isRecord, withoutFields } from '../../domain/plain-record';
import type { HookContext } from './hook-context';

/**
 * Removes hidden fields from what leaves through a transport (`context.dispatch`), for every
 * method and for pages, arrays and single records. Internal callers keep the full `result`; the
 * dispatch is set for them too, because their events are published to real-time connections.
 */
export function protectFields(...fields: string[]) {
  const strip = (record: unknown): unknown => (isRecord(record) ? withoutFields(record, fields) : record);
  return async (context: HookContext, next: () => Promise<void>): Promise<void> => {
    await next();
    const source = context.dispatch ?? context.result;
    if (isPaginated(source)) context.dispatch = copyWith(source, { data: source.data.map(strip) });
    else if (Array.isArray(source)) context.dispatch = source.map(strip);
    else context.dispatch = strip(source);
  };
}
