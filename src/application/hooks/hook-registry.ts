import type { AroundHook, HookMap, RegularHook } from './hook-types';
import { HOOK_TYPES } from './hook-types';

type Kind = (typeof HOOK_TYPES)[number];
type Store = { [K in Kind]: Map<string, (K extends 'around' ? AroundHook : RegularHook)[]> };

/** The hooks registered on one service or on the app, kept in registration order. */
export class HookRegistry {
  private readonly store: Store = { around: new Map(), before: new Map(), after: new Map(), error: new Map() };

  /** `knownMethods` limits the method keys accepted; without it (app level) any key is a method name. */
  constructor(private readonly knownMethods?: () => readonly string[]) {}

  register(map: HookMap): void {
    if (typeof map === 'function' || Array.isArray(map)) return this.add('around', 'all', map);
    for (const [key, value] of Object.entries(map)) {
      if ((HOOK_TYPES as readonly string[]).includes(key)) {
        if (typeof value === 'function' || Array.isArray(value)) this.add(key as Kind, 'all', value);
        else for (const [method, hooks] of Object.entries(value ?? {})) this.add(key as Kind, method, hooks);
      } else if (!this.knownMethods || this.knownMethods().includes(key) || key === 'all') {
        this.add('around', key, value as AroundHook | AroundHook[]);
      } else {
        throw new Error(`'${key}' is not a valid hook type or method`);
      }
    }
  }

  /** Hooks of one kind for a method: those for `all` first, then the method's own. */
  collect<K extends Kind>(kind: K, method: string): Store[K] extends Map<string, infer H> ? H : never {
    const map = this.store[kind] as Map<string, unknown[]>;
    return [...(map.get('all') ?? []), ...(map.get(method) ?? [])] as never;
  }

  /** Error hooks run the method's own first, then `all` (Feathers order). */
  collectErrorHooks(method: string): RegularHook[] {
    return [...(this.store.error.get(method) ?? []), ...(this.store.error.get('all') ?? [])];
  }

  isEmpty(): boolean {
    return HOOK_TYPES.every((kind) => this.store[kind].size === 0);
  }

  private add(kind: Kind, method: string, hooks: unknown): void {
    const list = (Array.isArray(hooks) ? hooks : [hooks]) as never[];
    for (const hook of list)
      if (typeof hook !== 'function') throw new Error(`A ${kind} hook for '${method}' must be a function`);
    const map = this.store[kind] as Map<string, unknown[]>;
    map.set(method, [...(map.get(method) ?? []), ...list]);
  }
}
