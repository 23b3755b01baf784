import { Forbidden, NotAuthenticated, NotFound } from '../../domain/errors';
import { copyWith } from '../../domain/plain-record';
import type { Query } from '../../domain/query';
import { STANDARD_METHODS } from '../../ports/service.port';
import type { HookContext } from '../hooks/hook-context';
import type { AroundHook } from '../hooks/hook-types';
import { labelled } from '../lifecycle/stage-label';
import type { CompiledPolicy } from './compiled-policy';
import type { PolicyViews } from './policy-views';
import type { PolicyAction } from './service-policy';
import { queriedFields } from './queried-fields';
import { writtenFields } from './written-fields';

const READING_METHODS: ReadonlySet<string> = new Set(['find', 'get']);
// Internal calls are the server's own: they skip both stages, wherever the hooks are registered.
const SCOPE = { stage: 'scope', slot: 'policy', externalOnly: true } as const;
const VIEW = { stage: 'view', slot: 'policy', externalOnly: true } as const;

/**
 * What a create's caller sent, before the storing server's hooks add to it: shown back to them.
 * Kept on the call's context itself (a table keyed by contexts would keep each young one alive
 * through collections); a symbol, so it never meets a hook's own keys.
 */
const SENT_FIELDS = Symbol('fields sent by the caller');

type CreateContext = HookContext & { [SENT_FIELDS]?: string[] };

/**
 * The `scope` stage: the caller's rules join the store query, so pages, totals and multi writes
 * only ever reach permitted records and an unreadable record is a 404; written fields and update
 * operators are checked (403 naming the fields). A create's fields are kept for the `view` stage.
 */
export function policyScope(views: PolicyViews): AroundHook {
  return labelled(SCOPE, (context, next) => {
    const compiled = views.compiledFor(context.params);
    if (context.method === 'create')
      (context as CreateContext)[SENT_FIELDS] = assertCreatable(compiled, context.data, context.path);
    else scopeQuery(context, compiled, actionOf(context.method));
    return next();
  });
}

/**
 * The `view` stage: the answer shows only what the caller may read (an answer an inner stage
 * recovered from an error too); a write to one record that found nothing becomes a 403 when the
 * caller may read that record.
 */
export function policyView(views: PolicyViews): AroundHook {
  return labelled(VIEW, async (context, next) => {
    try {
      await next();
    } catch (error) {
      throw await refusalOfWrite(context, views.compiledFor(context.params), actionOf(context.method), error);
    }
    const select = context.params.query?.$select;
    context.dispatch = views.answer(
      context.params,
      context.dispatch ?? context.result,
      (context as CreateContext)[SENT_FIELDS],
      Array.isArray(select) ? select : undefined,
    );
  });
}

function actionOf(method: string): PolicyAction {
  return READING_METHODS.has(method) ? 'read' : method;
}

/** Every new record must fall within a create rule covering its fields; returns the fields written. */
function assertCreatable(compiled: CompiledPolicy, data: unknown, path: string): string[] {
  if (!Array.isArray(data)) return assertCreatableRecord(compiled, data, path);
  const sent = new Set<string>();
  for (const item of data) for (const field of assertCreatableRecord(compiled, item, path)) sent.add(field);
  return [...sent];
}

function assertCreatableRecord(compiled: CompiledPolicy, item: unknown, path: string): string[] {
  const record = (item ?? {}) as Record<string, unknown>;
  const fields = writtenFields(record);
  if (compiled.allowsNew('create', record, fields)) return fields;
  const scope = compiled.scope('create', fields);
  if (!compiled.allows('create')) throw refusal(compiled, 'create', path);
  throw new Forbidden(
    scope.allowed ? `You may not create this record in ${path}` : `You may not write ${scope.refusedFields.join(', ')}`,
    scope.allowed ? undefined : { fields: scope.refusedFields },
  );
}

/**
 * The store condition of the call, from the rules that cover the fields it touches: those a read
 * queries or sorts by, those a write sets (update operators included).
 */
function scopeQuery(context: HookContext, compiled: CompiledPolicy, action: PolicyAction): void {
  const standard = (STANDARD_METHODS as readonly string[]).includes(context.method);
  const touched =
    action === 'read'
      ? queriedFields(context.params.query)
      : standard && context.method !== 'remove'
        ? writtenFields(context.data)
        : [];
  const scope = compiled.scope(action, touched);
  if (!scope.allowed) {
    if (!compiled.allows(action)) throw refusal(compiled, action, context.path);
    const verb = action === 'read' ? 'query' : action;
    throw new Forbidden(`You may not ${verb} ${scope.refusedFields.join(', ')}`, { fields: scope.refusedFields });
  }
  // Custom methods take no query from clients: the policy's condition is their only one.
  const query = standard ? withCondition(context.params.query, scope.condition) : scope.condition;
  if (query !== context.params.query) context.params = copyWith(context.params, { query });
}

/**
 * A write to one record that found nothing: a 403 when the caller may read that record (it
 * exists, they just may not change it), else the 404 as it was.
 */
async function refusalOfWrite(
  context: HookContext,
  compiled: CompiledPolicy,
  action: PolicyAction,
  error: unknown,
): Promise<unknown> {
  if (
    !(error instanceof NotFound) ||
    action === 'read' ||
    context.method === 'create' ||
    context.id === null ||
    context.id === undefined
  )
    return error;
  const readable = compiled.readCondition();
  if (readable === null) return error;
  try {
    await (context.service as { get(id: unknown, params: object): Promise<unknown> }).get(context.id, {
      query: readable,
    });
  } catch {
    return error;
  }
  return new Forbidden(`You may not ${action} this record`);
}

function refusal(compiled: CompiledPolicy, action: PolicyAction, path: string): Error {
  return compiled.caller.anonymous
    ? new NotAuthenticated('Not authenticated')
    : new Forbidden(`You may not ${action} ${path}`);
}

function withCondition(query: Query | undefined, condition: Query): Query | undefined {
  if (Object.keys(condition).length === 0) return query;
  const and = Array.isArray(query?.$and) ? query.$and : [];
  return copyWith(query ?? {}, { $and: [...and, condition] });
}
