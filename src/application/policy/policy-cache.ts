import { callerKey, type Caller } from './caller';
import { CompiledPolicy } from './compiled-policy';
import type { ServicePolicy } from './service-policy';

/** Enough for every user active at once on one instance; the oldest compiled policy goes first. */
const DEFAULT_CAPACITY = 10_000;

/**
 * A service's policy compiled once per caller (id and roles), kept in a bounded map so that
 * repeated calls and events reuse it; a role change makes a new key, hence a new compilation.
 */
export class PolicyCache {
  private readonly compiled = new Map<string, CompiledPolicy>();

  constructor(
    private readonly subject: string,
    private readonly policy: ServicePolicy,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  for(caller: Caller): CompiledPolicy {
    const key = callerKey(caller);
    const known = this.compiled.get(key);
    if (known) return known;
    const fresh = new CompiledPolicy(this.subject, this.policy, caller);
    if (this.compiled.size >= this.capacity) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(key, fresh);
    return fresh;
  }
}
