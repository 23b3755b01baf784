/**
 * A record of another service that a record names by id: a message's `user` is the `users`
 * record whose id is the message's `userId`. Declared in the definition under the name the
 * answers carry it by; resolved through the target service, as the caller, in one call per page.
 */
export interface Relation {
  /** The target service's path. */
  readonly service: string;
  /** The field of this service's records holding the target record's id. */
  readonly field: string;
  /** The target's field that `field` names a value of. Default `_id`. */
  readonly targetField?: string;
  /** The target's fields the relation carries (its id always); default: all the caller may read. */
  readonly select?: readonly string[];
}

/** A definition's relations, by the name answers carry each one under. */
export type Relations = Readonly<Record<string, Relation>>;

/** The query key naming the relations an answer carries: absent, all of them; empty, none. */
export const INCLUDE_KEY = '$include';
