import type { ComposedApplication } from '../../../src/composition-root';
import { Tokens } from '../../../src/composition/tokens';

/**
 * Counts the password comparisons of a composed application: wraps `compare` of the hasher
 * instance the local strategy holds (bound once in the container), so it counts real checks.
 * `holdMs` makes each comparison take at least that long, as a costly hash does on a busy
 * server, so every attempt of a burst is in flight before the first one fails.
 */
export function countPasswordChecks(
  composed: ComposedApplication,
  holdMs = 0,
): { readonly count: number; reset(): void } {
  const hasher = composed.container.get(Tokens.auth.passwordHasher);
  const compare = hasher.compare.bind(hasher);
  let count = 0;
  hasher.compare = async (password: string, hash: string) => {
    count++;
    if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
    return compare(password, hash);
  };
  return {
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
  };
}
