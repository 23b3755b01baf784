import { AbilityBuilder, createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import { permittedFieldsOf, rulesToCondition } from '@casl/ability/extra';
import type { Query } from '../../domain/query';
import type { Caller } from './caller';
import type { PolicyAction, RecordConditions, ServicePolicy } from './service-policy';

type Ability = MongoAbility;
type CompiledRule = ReturnType<Ability['rulesFor']>[number];

/** What a call may touch, or the fields no rule lets the caller touch. */
export type Scope = { allowed: true; condition: Query } | { allowed: false; refusedFields: string[] };

/**
 * One caller's policy for one service, compiled once (CASL's ability): the store condition of a
 * call by its action and the fields it touches, and the fields of a record the caller may see.
 * Conditions are MongoDB queries, so the same condition filters both stores.
 */
export class CompiledPolicy {
  private readonly ability: Ability;
  private readonly readConditionMemo: Query | null;

  constructor(
    readonly subject: string,
    policy: ServicePolicy,
    readonly caller: Caller,
  ) {
    const builder = new AbilityBuilder<Ability>(createMongoAbility);
    const add = (inverted: boolean) => (action: PolicyAction | PolicyAction[], fields?: readonly string[] | RecordConditions, conditions?: RecordConditions) => {
      const fieldList = Array.isArray(fields) ? [...(fields as readonly string[])] : undefined;
      const where = Array.isArray(fields) ? conditions : ((fields as RecordConditions | undefined) ?? conditions);
      const rule: RawRuleOf<Ability> = { action: action as string | string[], subject, inverted };
      if (fieldList) rule.fields = fieldList;
      if (where) rule.conditions = where;
      builder.rules.push(rule);
    };
    policy(caller, { can: add(false), cannot: add(true) });
    this.ability = builder.build({ detectSubjectType: () => subject });
    const read = this.scope('read', []);
    this.readConditionMemo = read.allowed ? read.condition : null;
  }

  /** Whether any rule lets the caller do `action` on some record. */
  allows(action: PolicyAction): boolean {
    return this.ability.rulesFor(action, this.subject).some((rule) => !rule.inverted);
  }

  /** The records the caller may read, whatever they query: `scope('read', [])`, kept. */
  readCondition(): Query | null {
    return this.readConditionMemo;
  }

  /**
   * The records a call may touch, by the fields it touches (those a write sets, those a read
   * queries or sorts by): the rules of `action` whose fields cover every one of them (an inverted
   * rule applies when it names any of them), as one store condition. Querying a field thus only
   * reaches records where the caller may read it, so a query is never an oracle for a hidden
   * value. When no rule covers the fields, those no rule of the action allows are named.
   */
  scope(action: PolicyAction, fields: readonly string[]): Scope {
    const rules = this.ability.rulesFor(action, this.subject);
    const applicable = rules.filter((rule) => (rule.inverted ? deniesAny(rule, fields) : coversAll(rule, fields)));
    const condition = conditionOf(applicable);
    if (condition !== null) return { allowed: true, condition };
    const allowedSomewhere = new Set(rules.filter((rule) => !rule.inverted).flatMap((rule) => rule.fields ?? fields));
    const refused = fields.filter((field) => !allowedSomewhere.has(field));
    return { allowed: false, refusedFields: refused.length > 0 ? refused : [...fields] };
  }

  /** Whether a new record (`create`) is within a rule of `action` that covers its fields. */
  allowsNew(action: PolicyAction, record: Record<string, unknown>, writtenFields: readonly string[]): boolean {
    const rules = this.ability.rulesFor(action, this.subject);
    // Highest priority first: the first rule that applies to these fields and this record decides.
    for (const rule of rules) {
      const applies = rule.inverted ? deniesAny(rule, writtenFields) : coversAll(rule, writtenFields);
      if (applies && rule.matchesConditions(record)) return !rule.inverted;
    }
    return false;
  }

  /** The fields of `record` the caller may read; undefined when the record itself is not readable. */
  visibleFields(record: Record<string, unknown>): string[] | undefined {
    if (!this.ability.can('read', record as never)) return undefined;
    const all = Object.keys(record);
    return permittedFieldsOf(this.ability, 'read', record as never, { fieldsFrom: (rule) => rule.fields ?? all });
  }
}

/** The rules (highest priority first) as one MongoDB condition; null when none allows anything. */
function conditionOf(rules: readonly CompiledRule[]): Query | null {
  return rulesToCondition<Ability, Query, Query>(
    rules,
    (rule) => {
      const conditions = (rule.conditions ?? {}) as Query;
      return rule.inverted ? { $nor: [conditions] } : conditions;
    },
    { and: (conditions) => ({ $and: conditions }), or: (conditions) => ({ $or: conditions }), empty: () => ({}) },
  );
}

function coversAll(rule: CompiledRule, fields: readonly string[]): boolean {
  return rule.fields === undefined || fields.every((field) => (rule.fields as string[]).includes(field));
}

function deniesAny(rule: CompiledRule, fields: readonly string[]): boolean {
  return rule.fields === undefined || fields.some((field) => (rule.fields as string[]).includes(field));
}
