import { ObjectId } from 'bson';
import type { AggregationCursor, CollationOptions, Collection, Document, FindCursor } from 'mongodb';
import { AdapterBase } from '../../application/adapter/adapter-base';
import { isPaginating } from '../../application/query/pagination';
import { BadRequest, GeneralError, NotFound, type ServiceError } from '../../domain/errors';
import { echo } from '../../domain/echo';
import type { Id, NullableId } from '../../domain/id';
import type { Paginated } from '../../domain/paginated';
import { copyWith } from '../../domain/plain-record';
import type { Query, QueryFilters } from '../../domain/query';
import type { Params } from '../../ports/service-params';
import type { DatabaseServiceOptions } from './database-service-options';
import { withMongoErrors } from './map-mongo-error';
import { isObjectIdLike } from './object-id';
import { patchToUpdate } from './patch-to-update';
import { objectifyValue, queryToFilter } from './query-to-filter';
import {
  buildCountPipeline,
  buildPipeline,
  selectToProjection,
  stableSort,
  type Projection,
} from './query-to-pipeline';
import { readByIds, withoutUnderscoreId } from './read-by-ids';
import { replaceKeeping } from './replace-keeping';
import { storedAsSent, withIdFirst } from './stored-as-sent';

type AnyRecord = Record<string, any>;

/** One call's query, converted: the MongoDB filter, the filters and the projection. */
interface QueryPlan {
  filter: Document;
  filters: QueryFilters;
  projection?: Projection;
}

/**
 * A service over a MongoDB collection (the seed's `DatabaseService`). `find` runs the
 * aggregation pipeline (`$match $sort $skip $limit`, `params.pipeline` after or at
 * `{ $service: {} }`, then `$project`); with `params.database` and no pipeline it uses `findRaw`.
 * `params.database` goes to every driver call of a method (re-reads and counts included), so a
 * transaction `session` covers the whole call; `params.collation` applies to find, patch and
 * remove with their counts and re-reads. Driver errors are mapped by `mapMongoError`.
 */
export class DatabaseService<
  T extends AnyRecord = AnyRecord,
  D = Partial<T>,
  P extends Params = Params,
> extends AdapterBase<T, D, P, DatabaseServiceOptions> {
  constructor(options: DatabaseServiceOptions) {
    if (!options || !options.Model)
      throw new Error('DatabaseService needs options with a Model (a collection or a promise of one)');
    super(options, '_id');
    // A Model promise that rejects before the first call must not crash the process as an unhandled
    // rejection; every call awaits it again and maps the error then.
    Promise.resolve(options.Model).catch(() => undefined);
  }

  /** The collection for this call (`params.adapter.Model` overrides the service's). */
  async getModel(params: P = {} as P): Promise<Collection<Document>> {
    const Model = this.option(params, 'Model');
    if (!Model) throw new GeneralError('DatabaseService has no Model');
    // A collection is used as it is; only a promised one is awaited (under the error mapping).
    if (typeof (Model as { then?: unknown }).then !== 'function') return Model as unknown as Collection<Document>;
    return withMongoErrors(async () => (await Model) as unknown as Collection<Document>);
  }

  /** The query stages for `params` (`$match`, `$sort`, `$skip`, `$limit`, `$project`); ignores `params.pipeline`. */
  makeServicePipeline(params: P = {} as P): Document[] {
    const { filter, filters, projection } = this.plan(params);
    return buildPipeline(filter, filters, projection);
  }

  /** The aggregation cursor `find` reads by default, with `params.pipeline` merged in. */
  async aggregateRaw(params: P = {} as P): Promise<AggregationCursor<Document>> {
    return this.aggregatePlan(this.plan(params), params);
  }

  /** A find cursor with `params.database` as the find options (the path `find` takes when it is set). */
  async findRaw(params: P = {} as P): Promise<FindCursor<Document>> {
    const model = await this.getModel(params);
    const { filter, filters, projection } = this.plan(params);
    // The driver reads limit 0 as "no limit"; `$limit: 0` means no records.
    const selection = filters.$limit === 0 ? { $and: [filter, { _id: { $in: [] } }] } : filter;
    const cursor = model.find(
      selection,
      copyWith(copyWith(projection ? { projection } : {}, params.database ?? {}), this.collation(params)),
    );
    const sort = stableSort(filters.$sort);
    if (sort) cursor.sort(sort);
    if (filters.$skip) cursor.skip(filters.$skip);
    if (filters.$limit) cursor.limit(filters.$limit);
    return cursor;
  }

  async _find(params: P = {} as P): Promise<T[] | Paginated<T>> {
    const paginate = this.option(params, 'paginate');
    const plan = this.plan(params);
    const { $limit: limit, $skip: skip = 0 } = plan.filters;
    const readData = async () => {
      if (limit === 0) return [];
      const cursor =
        params.database && !params.pipeline ? await this.findRaw(params) : await this.aggregatePlan(plan, params);
      return withMongoErrors(() => cursor.toArray());
    };
    if (!isPaginating(paginate)) return (await readData()) as T[];
    let data: Document[];
    let total: number;
    if (params.database?.session) {
      // Inside a session the calls run one after the other (a transaction must not start twice in
      // parallel), so a short page can spare the count's round trip.
      data = await readData();
      total =
        (params.pipeline ? undefined : totalFromPage(data.length, skip, limit)) ?? (await this.countPlan(plan, params));
    } else {
      [data, total] = await Promise.all([readData(), this.countPlan(plan, params)]);
    }
    return { total, limit: limit ?? total, skip, data: data as T[] };
  }

  async _get(id: Id, params: P = {} as P): Promise<T> {
    const plan = this.plan(params, id);
    let record: Document | null;
    if (params.pipeline) {
      const cursor = await this.aggregatePlan(copyWith(plan, { filters: { $limit: 1 } }), params);
      record = (await withMongoErrors(() => cursor.toArray()))[0] ?? null;
    } else {
      const model = await this.getModel(params);
      record = await withMongoErrors(() =>
        model.findOne(plan.filter, copyWith(this.projectionOption(plan), params.database ?? {})),
      );
    }
    if (!record) throw notFound(id);
    return record as unknown as T;
  }

  async _create(data: D | D[], params: P = {} as P): Promise<T | T[]> {
    const { projection } = this.plan(params);
    const model = await this.getModel(params);
    const records = (Array.isArray(data) ? data : [data]).map((item) => this.prepareCreate(item as AnyRecord, params));
    const options = { ...params.database };
    if (!Array.isArray(data)) {
      const { insertedId } = await withMongoErrors(() => model.insertOne(records[0], options));
      // Without a `$select`, the record is what was inserted (the driver set its `_id`) whenever
      // BSON keeps every value as it is: no read-back round trip. Otherwise it is read back.
      if (!projection && records[0]._id !== undefined && storedAsSent(records[0])) return withIdFirst(records[0]) as T;
      const [created] = await withMongoErrors(() => readByIds(model, [insertedId], projection, options));
      if (!created) throw new GeneralError('The created record could not be read back');
      return created as T;
    }
    if (records.length === 0) return [];
    const { insertedIds } = await withMongoErrors(() => model.insertMany(records, options));
    const ids = records.map((_record, index) => insertedIds[index]);
    return (await withMongoErrors(() => readByIds(model, ids, projection, options))) as T[];
  }

  async _update(id: Id, data: D, params: P = {} as P): Promise<T> {
    const plan = this.plan(params, id);
    const model = await this.getModel(params);
    const replacement: AnyRecord = { ...(data as AnyRecord) };
    const dollarKey = Object.keys(replacement).find((key) => key.startsWith('$'));
    if (dollarKey)
      throw new BadRequest(`update replaces the record and takes no update operators (${echo(dollarKey)}); use patch`);
    delete replacement._id;
    if (this.id !== '_id') replacement[this.id] = id;
    const kept = this.option(params, 'keepOnReplace') ?? [];
    const options = copyWith(copyWith(this.projectionOption(plan), params.database ?? {}), {
      returnDocument: 'after' as const,
    });
    const record = await withMongoErrors(() =>
      kept.length > 0
        ? model.findOneAndUpdate(plan.filter, replaceKeeping(replacement, kept), options)
        : model.findOneAndReplace(plan.filter, replacement, options),
    );
    if (!record) throw notFound(id);
    return record as unknown as T;
  }

  async _patch(id: NullableId, data: Partial<D>, params: P = {} as P): Promise<T | T[]> {
    const plan = this.plan(params, id ?? undefined);
    const model = await this.getModel(params);
    const updateOperators = this.option(params, 'updateOperators') ?? [];
    const update = patchToUpdate(data as AnyRecord, {
      protectedFields: [this.id, '_id'],
      allowedOperators: updateOperators,
    });
    const hasUpdate = Object.keys(update).length > 0;
    const options = copyWith(params.database ?? {}, this.collation(params));
    if (id !== null) {
      const record = await withMongoErrors(() =>
        hasUpdate
          ? model.findOneAndUpdate(
              plan.filter,
              update,
              copyWith(copyWith(this.projectionOption(plan), options), { returnDocument: 'after' }),
            )
          : model.findOne(plan.filter, copyWith(this.projectionOption(plan), options)),
      );
      if (!record) throw notFound(id);
      return record as unknown as T;
    }
    const ids = await this.matchingIds(model, plan, options);
    if (ids.length > 0 && hasUpdate)
      await withMongoErrors(() => model.updateMany({ _id: { $in: ids } } as Document, update, options));
    return (await withMongoErrors(() => readByIds(model, ids, plan.projection, options, plan.filters.$sort))) as T[];
  }

  async _remove(id: NullableId, params: P = {} as P): Promise<T | T[]> {
    const plan = this.plan(params, id ?? undefined);
    const model = await this.getModel(params);
    const options = copyWith(params.database ?? {}, this.collation(params));
    if (id !== null) {
      const record = await withMongoErrors(() =>
        model.findOneAndDelete(plan.filter, copyWith(this.projectionOption(plan), options)),
      );
      if (!record) throw notFound(id);
      return record as unknown as T;
    }
    const hidesId = plan.projection?._id === 0;
    const cursor = model.find(plan.filter, {
      projection: hidesId ? copyWith(plan.projection ?? {}, { _id: 1 }) : plan.projection,
      ...options,
    });
    const sort = stableSort(plan.filters.$sort);
    if (sort) cursor.sort(sort);
    if (plan.filters.$skip) cursor.skip(plan.filters.$skip);
    const records = await withMongoErrors(() => cursor.toArray());
    if (records.length > 0)
      await withMongoErrors(() => model.deleteMany({ _id: { $in: records.map((record) => record._id) } }, options));
    return (hidesId ? records.map(withoutUnderscoreId) : records) as unknown as T[];
  }

  /** ObjectId ids (of any bson copy) pass besides strings and numbers; objects and arrays are a 400. */
  protected override assertId(id: unknown): asserts id is Id {
    if (isObjectIdLike(id)) return;
    super.assertId(id);
  }

  /** The id as stored: a 24-hex string becomes an ObjectId when the id field is `_id` (unless `disableObjectify`). */
  getObjectId(id: Id | ObjectId, params: P = {} as P): unknown {
    return this.id === '_id' && !this.option(params, 'disableObjectify') ? objectifyValue(id) : id;
  }

  /** Validates `params.query` and converts it; with an id, the id condition is added with `$and`. */
  protected plan(params: P, id?: Id): QueryPlan {
    const { filters, query } = this.filterQuery(params);
    const disableObjectify = this.option(params, 'disableObjectify');
    let filter: Document = queryToFilter(query as Query, { objectIdField: disableObjectify ? undefined : '_id' });
    if (id !== undefined) {
      const condition = { [this.id]: this.getObjectId(id, params) };
      filter =
        Object.keys(filter).length === 0
          ? condition
          : copyWith(filter, { $and: [...((filter.$and as Document[]) ?? []), condition] });
    }
    return { filter, filters, projection: selectToProjection(filters.$select, this.id) };
  }

  private async aggregatePlan(plan: QueryPlan, params: P): Promise<AggregationCursor<Document>> {
    const model = await this.getModel(params);
    const stages = buildPipeline(plan.filter, plan.filters, plan.projection, params.pipeline);
    // The first batch defaults to 101 documents; a page of up to `$limit` then comes in one round trip.
    const limit = plan.filters.$limit;
    const batch = limit && limit > 0 && !params.pipeline ? { batchSize: limit } : {};
    return model.aggregate(stages, copyWith(copyWith(batch, params.database ?? {}), this.collation(params)));
  }

  /**
   * The page total, exact by default: `countDocuments` with the same filter, collation and
   * session, or the same pipeline ending in `$count`. `useEstimatedDocumentCount` takes the
   * collection's metadata count only when that equals the exact one: no conditions, no pipeline,
   * and no transaction (where the `count` command is not allowed).
   */
  private async countPlan(plan: QueryPlan, params: P): Promise<number> {
    const model = await this.getModel(params);
    const options = copyWith(params.database ?? {}, this.collation(params));
    if (params.pipeline) {
      const [result] = await withMongoErrors(() =>
        model.aggregate(buildCountPipeline(plan.filter, params.pipeline), options).toArray(),
      );
      return typeof result?.total === 'number' ? result.total : 0;
    }
    const useEstimatedDocumentCount = this.option(params, 'useEstimatedDocumentCount');
    const inTransaction = params.database?.session?.inTransaction?.() === true;
    if (useEstimatedDocumentCount && Object.keys(plan.filter).length === 0 && !inTransaction) {
      return withMongoErrors(() => model.estimatedDocumentCount({ ...params.database }));
    }
    return withMongoErrors(() => model.countDocuments(plan.filter, options));
  }

  /** The `_id`s a multi patch selects: the query with its `$sort` and `$skip`, in that order. */
  private async matchingIds(model: Collection<Document>, plan: QueryPlan, options: Document): Promise<unknown[]> {
    const cursor = model.find(plan.filter, copyWith(options, { projection: { _id: 1 } }));
    const sort = stableSort(plan.filters.$sort);
    if (sort) cursor.sort(sort);
    if (plan.filters.$skip) cursor.skip(plan.filters.$skip);
    return (await withMongoErrors(() => cursor.toArray())).map((record) => record._id);
  }

  private prepareCreate(data: AnyRecord, params: P): AnyRecord {
    const record = { ...data };
    const { generateId } = this.options;
    if (this.id !== '_id') {
      if (record[this.id] === undefined) record[this.id] = generateId ? generateId() : new ObjectId().toHexString();
    } else if (record._id !== undefined) {
      record._id = this.getObjectId(record._id, params);
    } else if (generateId) {
      record._id = generateId();
    }
    return record;
  }

  private collation(params: P): { collation?: CollationOptions } {
    return params.collation ? { collation: params.collation as CollationOptions } : {};
  }

  private projectionOption(plan: QueryPlan): { projection?: Projection } {
    return plan.projection ? { projection: plan.projection } : {};
  }
}

/**
 * The total a page implies without counting: a page shorter than its limit is the end of the
 * matches, unless it is empty past a skip (then the matches may end before the skip).
 */
function totalFromPage(length: number, skip: number, limit: number | undefined): number | undefined {
  if (!limit || length >= limit || (length === 0 && skip > 0)) return undefined;
  return skip + length;
}

function notFound(id: unknown): ServiceError {
  return new NotFound(`No record found for id '${echo(String(id))}'`);
}
