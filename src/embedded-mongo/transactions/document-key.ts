import { valueKey } from '../storage/value-key';

/** Unambiguous keys for a namespace and for one document in it (by canonical `_id`). */
export function namespaceKey(db: string, collection: string): string {
  return JSON.stringify([db, collection]);
}

export function documentKey(namespace: string, id: unknown): string {
  return `${namespace}\u0000${valueKey(id)}`;
}
