import { isPaginated } from '../../domain/paginated';
import { copyWith, isRecord } from '../../domain/plain-record';
import type { Params } from '../../ports/service-params';
import type { Application } from '../app/application';
import { internalCallParams } from '../observability/internal-call-params';
import type { HookContext } from '../hooks/hook-context';
import type { AroundHook } from '../hooks/hook-types';
import { includedRelations } from './included-relations';
import { INCLUDE_KEY, type Relation, type Relations } from './relation';

type StoredRecord = Record<string, unknown>;

/**
 * Resolves a service's relations where its records are stored: after each call, one `find`
 * through each target service (an `$in` of the ids the answer names, as the caller, so that a
 * remote target's server applies its policy for them) attaches the related records to the
 * result. The answer carries the relations the call's `$include` names (default: all); an event
 * carries all of them, since the connections that hear it did not ask for less. What each caller
 * or connection sees of a related record is then its own service's policy (the policy views).
 * A read whose relation cannot be resolved fails (503 when the target is unreachable); a write
 * that has happened still answers and is still heard, without the relation.
 */
export function resolveRelations(relations: Relations): AroundHook {
  const names = Object.keys(relations);
  // The store knows nothing of `$include`: it is taken out of the query, on the way in.
  const takeIncludes = (context: HookContext): string[] => {
    const query = context.params.query;
    if (!isRecord(query) || !Object.hasOwn(query, INCLUDE_KEY)) return names;
    const { [INCLUDE_KEY]: requested, ...rest } = query;
    context.params = copyWith(context.params, { query: rest });
    return includedRelations(relations, requested);
  };
  const attach = async (context: HookContext, included: readonly string[]): Promise<void> => {
    const needed = context.event ? names : included;
    if (needed.length === 0) return;
    const records = recordsIn(context.result);
    if (records.length === 0) return;
    const resolved = new Map<string, Map<string, StoredRecord>>();
    try {
      for (const name of needed)
        resolved.set(
          name,
          await findRelated(context.app as Application, name, relations[name], records, context.params),
        );
    } catch (error) {
      if (!context.event) throw error;
      return;
    }
    const withRelations = (record: StoredRecord, kept: readonly string[]): StoredRecord => {
      // Gathered first and added in one copy: keys added to a spread copy would give each record a hidden class of its
      // own.
      const related: StoredRecord = {};
      for (const name of kept) related[name] = resolved.get(name)!.get(idKey(record[relations[name].field])) ?? null;
      return copyWith(record, related);
    };
    const answered = context.dispatch ?? context.result;
    context.result = mapRecords(context.result, (record) => withRelations(record, needed));
    if (context.dispatch !== undefined || included.length < needed.length)
      context.dispatch = mapRecords(answered, (record) => withRelations(record, included));
  };
  return async (context, next) => {
    const included = takeIncludes(context);
    await next();
    await attach(context, included);
  };
}

/**
 * The related records of `records`, by id: one `find` of the target with an `$in` of the ids
 * (more pages only when the target's page size is smaller than the number of ids). Internal, so
 * a local target answers every field it does not hide, and the policy views show the caller
 * theirs; with the caller as `user`, so a remote target's server answers as that caller.
 */
async function findRelated(
  app: Application,
  name: string,
  relation: Relation,
  records: readonly StoredRecord[],
  params: Params,
): Promise<Map<string, StoredRecord>> {
  // The target's policy is what shows a related record to a caller: without one, nothing would.
  if (!app.lookup(relation.service)?.options.visibility)
    throw new Error(`Relation '${name}' targets '${relation.service}', which is not registered with a policy`);
  const ids = new Map<string, unknown>();
  for (const record of records) {
    const id = record[relation.field];
    if (id !== undefined && id !== null) ids.set(idKey(id), id);
  }
  const byId = new Map<string, StoredRecord>();
  if (ids.size === 0) return byId;
  const targetField = relation.targetField ?? '_id';
  const select = relation.select ? { $select: [...new Set([targetField, ...relation.select])] } : {};
  let skip = 0;
  for (let calls = 0; calls < ids.size; calls += 1) {
    const query = {
      [targetField]: { $in: [...ids.values()] },
      $limit: ids.size,
      ...select,
      ...(skip > 0 ? { $skip: skip } : {}),
    };
    const context = await app.execute(relation.service, 'find', {
      params: internalCallParams(params, { query, paginate: false, user: params.user }),
    });
    const answer: unknown = context.dispatch ?? context.result;
    const page = isPaginated(answer) ? answer.data : Array.isArray(answer) ? answer : [];
    for (const related of page) if (isRecord(related)) byId.set(idKey(related[targetField]), related);
    skip += page.length;
    if (!isPaginated(answer) || page.length === 0 || skip >= answer.total) break;
  }
  return byId;
}

/** Ids as strings: an ObjectId and its hex string name the same record. */
function idKey(id: unknown): string {
  return String(id);
}

function recordsIn(answer: unknown): StoredRecord[] {
  const list = isPaginated(answer) ? answer.data : Array.isArray(answer) ? answer : [answer];
  return list.filter(isRecord);
}

function mapRecords(answer: unknown, map: (record: StoredRecord) => StoredRecord): unknown {
  const each = (item: unknown) => (isRecord(item) ? map(item) : item);
  if (isPaginated(answer)) return copyWith(answer, { data: answer.data.map(each) });
  return Array.isArray(answer) ? answer.map(each) : each(answer);
}
