import { echo } from '../../domain/echo';
import { BadRequest } from '../../domain/errors';
import { INCLUDE_KEY, type Relations } from './relation';

/**
 * The relations a call's answer carries, from its `$include` (a name, a list of names, or empty
 * for none; absent: every relation). Names the definition does not declare are a 400.
 */
export function includedRelations(relations: Relations, value: unknown): string[] {
  if (value === undefined) return Object.keys(relations);
  const names = Array.isArray(value) ? value : [value];
  const included: string[] = [];
  for (const name of names) {
    if (name === '') continue;
    if (typeof name !== 'string' || !Object.hasOwn(relations, name)) {
      const declared = Object.keys(relations).join(', ');
      throw new BadRequest(
        `'${echo(name)}' is not a relation of this service (${INCLUDE_KEY} takes: ${declared || 'none'})`,
        { [INCLUDE_KEY]: echo(name) },
      );
    }
    if (!included.includes(name)) included.push(name);
  }
  return included;
}
