import { isPaginated } from '../../domain/paginated';
import { copyWith, isRecord, withoutFields } from '../../domain/plain-record';
import type { Params } from '../../ports/service-params';
import type { RecordView, RecordVisibility } from '../../ports/service-options';
import type { Relation, Relations } from '../relations/relation';
import { callerOf, type Caller } from './caller';
import type { CompiledPolicy, ShownFields } from './compiled-policy';
import { PolicyCache } from './policy-cache';
import type { ServicePolicy } from './service-policy';

/** Fields computed for each caller (e.g. `liked`: did I like it), added to every view of a readable record. */
export type ComputedFields = Readonly<
  Record<string, (record: Readonly<Record<string, unknown>>, caller: Caller) => unknown>
>;

type ComputedEntries = readonly (readonly [string, ComputedFields[string]])[];

const NO_RELATED: readonly (readonly [string, RecordView | undefined])[] = [];

/** What a view adds to the record's own fields, for one viewer. */
interface Extras {
  readonly computed: readonly (readonly [string, unknown])[];
  readonly related: readonly (readonly [string, RecordView | undefined])[];
}

export interface PolicySettings {
  /** The service's path: the subject of its rules. */
  readonly path: string;
  readonly policy: ServicePolicy;
  /** The user field holding the caller's roles. */
  readonly rolesField: string;
  /** The id field, which an answer keeps for a record the caller may write but not read. */
  readonly idField: string;
  /** Fields that never leave the server, whatever a rule says. */
  readonly hiddenFields: readonly string[];
  readonly computed?: ComputedFields;
  /** Related records answers carry, each shown as its own service's policy shows it to the caller. */
  readonly relations?: Relations;
  /** The visibility of another service (a relation's target), looked up when a view is made. */
  readonly visibilityOf?: (path: string) => RecordVisibility | undefined;
}

/** The fields an event's record shows to some viewers, and the views made with them. */
interface EventShape {
  readonly fields: string[];
  readonly key: string;
  readonly views: Map<string, Record<string, unknown>>;
  /** The one view of these fields when nothing is computed or related per viewer. */
  alike?: RecordView;
}

const NO_EXTRAS: Extras = { computed: [], related: NO_RELATED };

/** Who a view is made for: their compiled policy, and the user record, for the views of related records. */
interface Viewer {
  readonly compiled: CompiledPolicy;
  readonly user: Record<string, any> | undefined;
}

/**
 * What a service's policy lets each caller see: the answers of their calls and, per real-time
 * connection, the service's events. Views are made from the stored record, field by field, so a
 * `$select` or a related record can never show more than the policy does.
 */
export class PolicyViews implements RecordVisibility {
  private readonly policies: PolicyCache;
  private readonly hidden: ReadonlySet<string>;
  private readonly computed: ComputedEntries;
  private readonly relations: readonly (readonly [string, Relation])[];
  /**
   * Each kept answer of the rules' visible fields less the hidden ones (the rules' answers are kept per caller, so this
   * stays small).
   */
  private readonly unhidden = new WeakMap<ShownFields, readonly string[]>();
  /** The views made of each event's record, by the fields a caller's rules show, then by view key. */
  private readonly eventViews = new WeakMap<object, Map<string, EventShape>>();
  /** The last event's record and its shapes: a delivery asks about one record for every connection. */
  private lastEventRecord?: object;
  private lastEventShapes?: Map<string, EventShape>;
  /**
   * The compiled policy of each connection's user object, kept by the object as events reach it.
   * Only long-lived objects go in: a request's user is loaded afresh for each call, and a WeakMap
   * entry per call would keep each young user alive through collections, promoting it.
   */
  private readonly byUser = new WeakMap<object, CompiledPolicy>();
  /**
   * The last call's user and policy (two fields: nothing allocated per call). A call asks before
   * and after its store call, mostly with no other call in between.
   */
  private lastUser?: object;
  private lastCompiled?: CompiledPolicy;

  constructor(private readonly settings: PolicySettings) {
    this.policies = new PolicyCache(settings.path, settings.policy);
    this.hidden = new Set(settings.hiddenFields);
    this.computed = Object.entries(settings.computed ?? {});
    this.relations = Object.entries(settings.relations ?? {});
  }

  /** The policy of the call's caller, compiled once per caller (by id and roles). */
  compiledFor(params: Params): CompiledPolicy {
    const user = params.user;
    if (!user) return this.policies.for(callerOf(params, this.settings.rolesField));
    if (user === this.lastUser) return this.lastCompiled!;
    const compiled = this.byUser.get(user) ?? this.policies.for(callerOf(params, this.settings.rolesField));
    this.lastUser = user;
    this.lastCompiled = compiled;
    return compiled;
  }

  /** The policy of a connection's user, kept by the user object: every event asks again for the same one. */
  private compiledForConnection(user: Record<string, any> | undefined): CompiledPolicy {
    if (!user) return this.policies.for(callerOf({}, this.settings.rolesField));
    let compiled = this.byUser.get(user);
    if (!compiled) this.byUser.set(user, (compiled = this.policies.for(callerOf({ user }, this.settings.rolesField))));
    return compiled;
  }

  /**
   * The caller's view of an answer (a record, an array or a page). Unreadable records in a list
   * are dropped. `sent`: the fields the caller wrote themself (a create's data), which they see
   * back even where they may not read them (a sign-up's own e-mail); a single record they may not
   * read otherwise keeps its id only. `selected`: the call's `$select`, which computed fields obey.
   * A related record the answer carries is shown as its own service's policy shows it to the caller.
   */
  answer(params: Params, answer: unknown, sent: readonly string[] = [], selected?: readonly string[]): unknown {
    const viewer: Viewer = { compiled: this.compiledFor(params), user: params.user };
    const computed = selected ? this.computed.filter(([name]) => selected.includes(name)) : this.computed;
    if (isPaginated(answer)) {
      const data = this.list(viewer, answer.data, computed);
      return data === answer.data ? answer : copyWith(answer, { data });
    }
    if (Array.isArray(answer))
      return sent.length > 0
        ? answer.map((record) => this.withSent(viewer, record, sent, computed))
        : this.list(viewer, answer, computed);
    return this.withSent(viewer, answer, sent, computed);
  }

  published(record: unknown): unknown {
    return isRecord(record) && this.hidden.size > 0 ? withoutFields(record, this.hidden) : record;
  }

  /**
   * One connection's view of an event's record. Every connection of a delivery asks about the
   * same record: the views made of it are kept with it (by the fields shown, then by the whole
   * key), so connections that see alike share one view object and it is made once.
   */
  viewFor(user: Record<string, any> | undefined, record: unknown): RecordView | undefined {
    if (!isRecord(record)) return undefined;
    const compiled = this.compiledForConnection(user);
    const shown = compiled.shownFields(record);
    if (!shown) return undefined;
    const shapes = this.shapesOf(record);
    // By the fields' names: callers whose rules are worked out afresh each time (no kept answer) share too.
    let shape = shapes.get(shown.key);
    if (!shape) {
      const fields = shown.fields.filter((field) => !this.hidden.has(field) && Object.hasOwn(record, field));
      shapes.set(shown.key, (shape = { fields, key: fields.join('\u0000'), views: new Map() }));
    }
    // Nothing made per viewer: everyone with these fields shares one view, under the fields' key.
    if (this.computed.length === 0 && this.relations.length === 0)
      return (shape.alike ??= { key: shape.key, view: this.assemble(record, shape.fields, NO_EXTRAS) });
    const extras = this.extrasOf({ compiled, user }, record, shape.fields, this.computed);
    const computedPart = extras.computed.length === 0 ? '' : JSON.stringify(extras.computed.map(([, value]) => value));
    const key =
      `${shape.key}\u0001${computedPart}\u0001` + `${extras.related.map(([, view]) => view?.key ?? '').join('\u0001')}`;
    let view = shape.views.get(key);
    if (!view) shape.views.set(key, (view = this.assemble(record, shape.fields, extras)));
    return { key, view };
  }

  private shapesOf(record: object): Map<string, EventShape> {
    if (record === this.lastEventRecord) return this.lastEventShapes!;
    let shapes = this.eventViews.get(record);
    if (!shapes) this.eventViews.set(record, (shapes = new Map()));
    this.lastEventRecord = record;
    this.lastEventShapes = shapes;
    return shapes;
  }

  /** One record as the caller sees it; undefined when they may not read it. */
  private recordView(
    viewer: Viewer,
    record: Record<string, unknown>,
    computed: ComputedEntries,
  ): Record<string, unknown> | undefined {
    const shown = viewer.compiled.shownFields(record);
    if (!shown) return undefined;
    // Nothing to leave out and nothing to add: the answer's record is its own view (no copy, as without a policy).
    if (computed.length === 0 && this.relations.length === 0 && this.showsWhole(shown, record)) return record;
    return this.viewOf(viewer, record, this.unhiddenFields(shown), computed);
  }

  /** Whether every field of the record is shown and none hidden (kept answers only: they carry their set). */
  private showsWhole(shown: ShownFields, record: Record<string, unknown>): boolean {
    const set = shown.set;
    if (set === undefined) return false;
    for (const field in record) if (!set.has(field) || this.hidden.has(field)) return false;
    return true;
  }

  /** One answered record: what the caller may read, plus what they sent, plus the id. */
  private withSent(viewer: Viewer, record: unknown, sent: readonly string[], computed: ComputedEntries): unknown {
    if (!isRecord(record)) return record;
    const idField = this.settings.idField;
    const view = this.recordView(viewer, record, computed) ?? { [idField]: record[idField] };
    // The record itself: whatever the caller sent is in it already.
    if (view === record) return view;
    for (const field of sent)
      if (!this.hidden.has(field) && Object.hasOwn(record, field) && !Object.hasOwn(view, field))
        view[field] = record[field];
    return view;
  }

  /** The readable records' views; the list itself when each record is its own view. */
  private list(viewer: Viewer, records: readonly unknown[], computed: ComputedEntries): readonly unknown[] {
    let views: unknown[] | undefined;
    for (let index = 0; index < records.length; index += 1) {
      const record = records[index];
      const view = isRecord(record) ? this.recordView(viewer, record, computed) : record;
      // Copied only from the first record that is not its own view.
      if (views === undefined && view !== record) views = records.slice(0, index);
      if (views !== undefined && view !== undefined) views.push(view);
    }
    return views ?? records;
  }

  /**
   * The fields the caller's rules show, less hidden ones (kept per kept answer of the rules); the record may lack some.
   */
  private unhiddenFields(shown: ShownFields): readonly string[] {
    if (this.hidden.size === 0) return shown.fields;
    let visible = this.unhidden.get(shown);
    if (!visible) {
      visible = Object.freeze(shown.fields.filter((field) => !this.hidden.has(field)));
      if (shown.set !== undefined) this.unhidden.set(shown, visible);
    }
    return visible;
  }

  /**
   * The fields, the computed fields, and each related record the record carries, as its own
   * service shows it to the viewer (null when they may not read it): only where the viewer may
   * read the field naming it, so a relation never tells what its field would not.
   */
  private viewOf(
    viewer: Viewer,
    record: Record<string, unknown>,
    fields: readonly string[],
    computed: ComputedEntries,
  ): Record<string, unknown> {
    return this.assemble(record, fields, this.extrasOf(viewer, record, fields, computed));
  }

  /** The computed fields' values for the viewer, and the related records as their services show them to the viewer. */
  private extrasOf(
    viewer: Viewer,
    record: Record<string, unknown>,
    fields: readonly string[],
    computed: ComputedEntries,
  ): Extras {
    return {
      computed: computed.map(([name, compute]) => [name, compute(record, viewer.compiled.caller)] as const),
      related:
        this.relations.length === 0
          ? NO_RELATED
          : this.relations
              .filter(
                ([name, relation]) =>
                  Object.hasOwn(record, name) &&
                  fields.includes(relation.field) &&
                  Object.hasOwn(record, relation.field),
              )
              .map(([name, relation]) => [name, this.relatedView(relation, record[name], viewer.user)] as const),
    };
  }

  /**
   * The view itself: the record's fields it has, then the computed fields, then each related record (null where not
   * shown).
   */
  private assemble(
    record: Record<string, unknown>,
    fields: readonly string[],
    { computed, related }: Extras,
  ): Record<string, unknown> {
    const view: Record<string, unknown> = {};
    for (const field of fields) if (Object.hasOwn(record, field)) view[field] = record[field];
    for (const [name, value] of computed) view[name] = value;
    for (const [name, relatedView] of related) view[name] = relatedView?.view ?? null;
    return view;
  }

  private relatedView(
    relation: Relation,
    related: unknown,
    user: Record<string, any> | undefined,
  ): RecordView | undefined {
    if (!isRecord(related)) return undefined;
    const target = this.settings.visibilityOf?.(relation.service);
    if (!target) return { key: JSON.stringify(related), view: related };
    const seen = target.viewFor(user, related);
    if (!seen || !relation.select) return seen;
    const carried = new Set([relation.targetField ?? '_id', ...relation.select]);
    return {
      key: seen.key,
      view: Object.fromEntries(Object.entries(seen.view).filter(([field]) => carried.has(field))),
    };
  }
}
