import type * as Casl from '@casl/ability';
import type * as CaslExtra from '@casl/ability/extra';

/*
 * CASL and its query interpreters (@ucast) load when the first policy is compiled, not with the
 * package: an application without policies never pays for them.
 */
let ability: typeof Casl | undefined;
let extra: typeof CaslExtra | undefined;

export function caslAbility(): typeof Casl {
  return (ability ??= require('@casl/ability') as typeof Casl);
}

export function caslExtra(): typeof CaslExtra {
  return (extra ??= require('@casl/ability/extra') as typeof CaslExtra);
}
