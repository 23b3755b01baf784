import type { Caller } from './caller';

/**
 * What a caller may do: a service method (`find`/`get` are `read`), or `read` itself, which also
 * decides which records and fields answers and events show. `manage` is every action.
 */
export type PolicyAction = 'read' | 'create' | 'update' | 'patch' | 'remove' | 'manage' | (string & {});

/** Conditions on a record's fields, as a MongoDB query (the stores speak it; CASL matches it). */
export type RecordConditions = Record<string, unknown>;

/**
 * The rule builder a policy receives, bound to its service. `fields` limits a rule to those
 * fields: for `read` the fields a caller sees, for a write the fields their data may set (update
 * operators count the fields they change). `conditions` limits it to the records that match.
 */
export interface PolicyRules {
  can(
    action: PolicyAction | PolicyAction[],
    fields?: readonly string[] | RecordConditions,
    conditions?: RecordConditions,
  ): void;
  cannot(
    action: PolicyAction | PolicyAction[],
    fields?: readonly string[] | RecordConditions,
    conditions?: RecordConditions,
  ): void;
}

/**
 * A service's policy: the rules for one caller. It must depend on the caller only (id and roles),
 * since what it compiles to is kept per caller. Without a rule for an action, the action is refused.
 */
export type ServicePolicy = (caller: Caller, rules: PolicyRules) => void;
