import type { MongoAbility, RawRuleOf } from '@casl/ability';
import type { Query } from '../../domain/query';
import { caslAbility, caslExtra } from './casl-library';
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
  /** Scopes already worked out, by action and fields (a caller's calls repeat a few shapes). */
  private readonly scopes = new Map<string, Scope>();
  /**
   * The read rules with conditions (when few enough): which fields a record shows depends only on
   * which of these it matches and, where a read rule names no fields (all of them), on the
   * record's own field names; the answer is kept per combination, for the last names seen.
   */
  private readonly conditionalReads: readonly ((record: Record<string, unknown>) => boolean)[] | undefined;
  /** Whether some read rule names no fields, so that what it shows is the record's own fields. */
  private readonly readsAllFields: boolean;
  private readonly visibleByMatches = new Map<number, VisibleFields>();

  constructor(
    readonly subject: string,
    policy: ServicePolicy,
    readonly caller: Caller,
  ) {
    const { AbilityBuilder, createMongoAbility } = caslAbility();
    const builder = new AbilityBuilder<Ability>(createMongoAbility);
    const add =
      (inverted: boolean) =>
      (
        action: PolicyAction | PolicyAction[],
        fields?: readonly string[] | RecordConditions,
        conditions?: RecordConditions,
      ) => {
        const fieldList = Array.isArray(fields) ? [...(fields as readonly string[])] : undefined;
        const where = Array.isArray(fields) ? conditions : ((fields as RecordConditions | undefined) ?? conditions);
        const rule: RawRuleOf<Ability> = { action: action as string | string[], subject, inverted };
        if (fieldList) rule.fields = fieldList;
        if (where) rule.conditions = where;
        builder.rules.push(rule);
      };
    policy(caller, { can: add(false), cannot: add(true) });
    this.ability = builder.build({ detectSubjectType: () => subject });
    const reads = this.ability.rulesFor('read', subject);
    const conditional = reads.filter((rule) => rule.conditions !== undefined);
    this.conditionalReads = conditional.length <= MAX_KEPT_CONDITIONS ? conditional.map(matcherOf) : undefined;
    this.readsAllFields = reads.some((rule) => rule.fields === undefined);
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
    // Most reads query no field at all: their key is the action's own.
    const key = fields.length === 0 ? action : `${action}\u0000${fields.join('\u0000')}`;
    const known = this.scopes.get(key);
    if (known) return known;
    const scope = deepFreeze(this.scopeOf(action, fields));
    if (this.scopes.size >= MAX_KEPT_SCOPES) this.scopes.clear();
    this.scopes.set(key, scope);
    return scope;
  }

  private scopeOf(action: PolicyAction, fields: readonly string[]): Scope {
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

  /**
   * The fields of `record` the caller may read (undefined when the record itself is not readable),
   * with the names joined into one key (the same list, the same key), for telling connections that
   * see alike apart without joining or hashing the list for each of them.
   */
  shownFields(record: Record<string, unknown>): ShownFields | undefined {
    const conditional = this.conditionalReads;
    if (!conditional) return shownFieldsOf(this.visibleFieldsOf(record), false);
    let matches = 0;
    for (let index = 0; index < conditional.length; index += 1) if (conditional[index](record)) matches |= 1 << index;
    let kept = this.visibleByMatches.get(matches);
    if (kept === undefined || (kept.names !== undefined && !hasNames(record, kept.names))) {
      // Worked out by CASL once per combination (and field names): every such record shows the same fields.
      kept = {
        names: this.readsAllFields ? Object.keys(record) : undefined,
        shown: shownFieldsOf(this.visibleFieldsOf(record), true),
      };
      this.visibleByMatches.set(matches, kept);
    }
    return kept.shown;
  }

  private visibleFieldsOf(record: Record<string, unknown>): string[] | undefined {
    if (!this.ability.can('read', record as never)) return undefined;
    const all = Object.keys(record);
    return caslExtra().permittedFieldsOf(this.ability, 'read', record as never, {
      fieldsFrom: (rule) => rule.fields ?? all,
    });
  }
}

/** The fields a combination of matched read rules shows: for records with these field names, when they count. */
interface VisibleFields {
  readonly names: readonly string[] | undefined;
  readonly shown: ShownFields | undefined;
}

/**
 * Fields a record shows a caller, their names joined as one key, and for a kept answer (one per
 * combination of matched rules, shared by every such record) the same names as a set.
 */
export interface ShownFields {
  readonly fields: readonly string[];
  readonly key: string;
  readonly set: ReadonlySet<string> | undefined;
}

/** A list worked out afresh for one record (too many conditional rules to keep) is not worth a set. */
function shownFieldsOf(fields: string[] | undefined, kept: boolean): ShownFields | undefined {
  if (fields === undefined) return undefined;
  return {
    fields: kept ? Object.freeze(fields) : fields,
    key: fields.join('\u0000'),
    set: kept ? new Set(fields) : undefined,
  };
}

/**
 * Whether the record's own enumerable field names are exactly `names`, in order (records of one shape list them alike).
 */
function hasNames(record: Record<string, unknown>, names: readonly string[]): boolean {
  let index = 0;
  for (const name in record) {
    if (!Object.hasOwn(record, name) || names[index] !== name) return false;
    index += 1;
  }
  return index === names.length;
}

/** Combinations of conditional read rules kept per caller (2^n of them at most). */
const MAX_KEPT_CONDITIONS = 8;
/** Scope shapes kept per caller; past it they are worked out afresh. */
const MAX_KEPT_SCOPES = 64;

/**
 * Whether a record matches a rule's conditions. The common owner rule, `{ field: value }` with
 * plain values, is matched here directly (MongoDB's equality: the value, or an array holding it)
 * when the record's values are plain too; anything else asks CASL.
 */
function matcherOf(rule: CompiledRule): (record: Record<string, unknown>) => boolean {
  const conditions = Object.entries(rule.conditions as Record<string, unknown>);
  if (!conditions.every(([field, value]) => !field.startsWith('$') && !field.includes('.') && plain(value)))
    return (record) => rule.matchesConditions(record);
  return (record) => {
    for (const [field, wanted] of conditions) {
      const value = record[field];
      // MongoDB's `{ field: null }` also matches a record without the field.
      if (value === wanted || (wanted === null && value === undefined)) continue;
      if (Array.isArray(value) && value.every(plain)) {
        if (value.includes(wanted)) continue;
        return false;
      }
      if (plain(value) || value === undefined) return false;
      return rule.matchesConditions(record);
    }
    return true;
  };
}

function plain(value: unknown): boolean {
  const type = typeof value;
  return value === null || type === 'string' || type === 'number' || type === 'boolean';
}

/** Frozen all the way down: a kept scope's condition joins many calls' queries and is never changed by one. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The rules (highest priority first) as one MongoDB condition; null when none allows anything. */
function conditionOf(rules: readonly CompiledRule[]): Query | null {
  return caslExtra().rulesToCondition<Ability, Query, Query>(
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
