import type {
  AggregateOptions,
  AnyBulkWriteOperation,
  BulkWriteOptions,
  Collection,
  CountDocumentsOptions,
  CreateCollectionOptions,
  CreateIndexesOptions,
  Db,
  DeleteOptions,
  DistinctOptions,
  Document,
  DropCollectionOptions,
  EstimatedDocumentCountOptions,
  Filter,
  FindOneAndDeleteOptions,
  FindOneAndReplaceOptions,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexSpecification,
  InsertManyResult,
  InsertOneOptions,
  ReplaceOptions,
  RunCommandOptions,
  UpdateFilter,
  UpdateOptions,
} from 'mongodb';
import type { EntityMap } from './entities';
import type { OperationDef } from './unified-types';

type Args = Record<string, unknown>;
type CollectionOp = (collection: Collection, args: Args) => Promise<unknown>;
type DatabaseOp = (db: Db, args: Args) => Promise<unknown>;

/** Splits the operation's positional arguments from the rest, which are driver options. */
function take<K extends string>(args: Args, ...names: K[]): [Record<K, unknown>, Args] {
  const picked = {} as Record<K, unknown>;
  const rest: Args = { ...args };
  for (const name of names) {
    picked[name] = rest[name];
    delete rest[name];
  }
  return [picked, rest];
}

const filterOf = (value: unknown): Filter<Document> => (value ?? {}) as Filter<Document>;

const COLLECTION_OPS: Record<string, CollectionOp> = {
  find: (c, args) => {
    const [{ filter }, opts] = take(args, 'filter');
    return c.find(filterOf(filter), opts as FindOptions).toArray();
  },
  findOne: (c, args) => {
    const [{ filter }, opts] = take(args, 'filter');
    return c.findOne(filterOf(filter), opts as FindOptions);
  },
  aggregate: (c, args) => {
    const [{ pipeline }, opts] = take(args, 'pipeline');
    return c.aggregate(pipeline as Document[], opts as AggregateOptions).toArray();
  },
  countDocuments: (c, args) => {
    const [{ filter }, opts] = take(args, 'filter');
    return c.countDocuments(filterOf(filter), opts as CountDocumentsOptions);
  },
  estimatedDocumentCount: (c, args) => c.estimatedDocumentCount(args as EstimatedDocumentCountOptions),
  distinct: (c, args) => {
    const [{ fieldName, filter }, opts] = take(args, 'fieldName', 'filter');
    return c.distinct(String(fieldName), filterOf(filter), opts as DistinctOptions);
  },
  insertOne: (c, args) => {
    const [{ document }, opts] = take(args, 'document');
    return c.insertOne(document as Document, opts as InsertOneOptions);
  },
  insertMany: async (c, args) => {
    const [{ documents }, opts] = take(args, 'documents');
    const result: InsertManyResult = await c.insertMany(documents as Document[], opts as BulkWriteOptions);
    return result;
  },
  updateOne: (c, args) => {
    const [{ filter, update }, opts] = take(args, 'filter', 'update');
    return c.updateOne(filterOf(filter), update as UpdateFilter<Document>, opts as UpdateOptions);
  },
  updateMany: (c, args) => {
    const [{ filter, update }, opts] = take(args, 'filter', 'update');
    return c.updateMany(filterOf(filter), update as UpdateFilter<Document>, opts as UpdateOptions);
  },
  replaceOne: (c, args) => {
    const [{ filter, replacement }, opts] = take(args, 'filter', 'replacement');
    return c.replaceOne(filterOf(filter), replacement as Document, opts as ReplaceOptions);
  },
  deleteOne: (c, args) => {
    const [{ filter }, opts] = take(args, 'filter');
    return c.deleteOne(filterOf(filter), opts as DeleteOptions);
  },
  deleteMany: (c, args) => {
    const [{ filter }, opts] = take(args, 'filter');
    return c.deleteMany(filterOf(filter), opts as DeleteOptions);
  },
  findOneAndUpdate: (c, args) => {
    const [{ filter, update }, opts] = take(args, 'filter', 'update');
    return c.findOneAndUpdate(filterOf(filter), update as UpdateFilter<Document>, opts as FindOneAndUpdateOptions);
  },
  findOneAndReplace: (c, args) => {
    const [{ filter, replacement }, opts] = take(args, 'filter', 'replacement');
    return c.findOneAndReplace(filterOf(filter), replacement as Document, opts as FindOneAndReplaceOptions);
  },
  findOneAndDelete: (c, args) => {
    const [{ filter }, opts] = take(args, 'filter');
    return c.findOneAndDelete(filterOf(filter), opts as FindOneAndDeleteOptions);
  },
  // The unified request shapes ({ insertOne: { document } }, { updateOne: { filter, update } }...)
  // are the driver's own.
  bulkWrite: (c, args) => {
    const [{ requests }, opts] = take(args, 'requests');
    return c.bulkWrite(requests as AnyBulkWriteOperation<Document>[], opts as BulkWriteOptions);
  },
  createIndex: (c, args) => {
    const [{ keys }, opts] = take(args, 'keys');
    return c.createIndex(keys as IndexSpecification, opts as CreateIndexesOptions);
  },
  dropIndex: (c, args) => {
    const [{ name }, opts] = take(args, 'name');
    return c.dropIndex(String(name), opts);
  },
  listIndexes: (c, args) => c.listIndexes(args).toArray(),
  drop: (c, args) => c.drop(args as DropCollectionOptions),
};

const DATABASE_OPS: Record<string, DatabaseOp> = {
  aggregate: (db, args) => {
    const [{ pipeline }, opts] = take(args, 'pipeline');
    return db.aggregate(pipeline as Document[], opts as AggregateOptions).toArray();
  },
  createCollection: async (db, args) => {
    const [{ collection }, opts] = take(args, 'collection');
    await db.createCollection(String(collection), opts as CreateCollectionOptions);
  },
  dropCollection: async (db, args) => {
    const [{ collection }, opts] = take(args, 'collection');
    await db.dropCollection(String(collection), opts as DropCollectionOptions);
  },
  listCollections: (db, args) => {
    const [{ filter }, opts] = take(args, 'filter');
    return db.listCollections(filterOf(filter), opts).toArray();
  },
  runCommand: (db, args) => {
    const [{ command }, opts] = take(args, 'command', 'commandName');
    return db.command(command as Document, opts as RunCommandOptions);
  },
};

/** Operations whose result is a cursor's documents: each element is a root-level document when matched. */
const CURSOR_RESULTS = new Set(['find', 'aggregate', 'listCollections', 'listIndexes']);

export function returnsCursorDocuments(name: string): boolean {
  return CURSOR_RESULTS.has(name);
}

export function supportedOperations(): string[] {
  return [...new Set([...Object.keys(COLLECTION_OPS), ...Object.keys(DATABASE_OPS)])].sort();
}

/**
 * The Node driver replaces an explicit `_id: null` with a fresh ObjectId unless told the server
 * generates ids. When every document already names its `_id`, asking for that changes nothing
 * else on the wire and lets create-null-ids reach the server as written.
 */
function keepsExplicitIds(name: string, args: Args): boolean {
  const docs =
    name === 'insertOne'
      ? [args.document]
      : name === 'insertMany'
        ? (args.documents as unknown[] | undefined)
        : undefined;
  return !!docs && docs.length > 0 && docs.every((d) => d !== null && typeof d === 'object' && '_id' in d);
}

/** Spec argument spellings and defaults that differ from the Node driver's. */
function translateArguments(name: string, args: Args, entities: EntityMap): Args {
  const out: Args = { ...args };
  if (typeof out.returnDocument === 'string') out.returnDocument = out.returnDocument.toLowerCase();
  if (typeof out.session === 'string') out.session = entities.session(out.session);
  if (keepsExplicitIds(name, args)) out.forceServerObjectId = true;
  return out;
}

/** Runs one unified operation against its entity with the real driver and returns the driver's result. */
export async function runOperation(op: OperationDef, entities: EntityMap): Promise<unknown> {
  const args = translateArguments(op.name, op.arguments ?? {}, entities);
  const kind = entities.kindOf(op.object);
  if (kind === 'collection') {
    const fn = COLLECTION_OPS[op.name];
    if (!fn) throw new RunnerError(`operation ${op.name} on a collection is not supported by the runner`);
    return fn(entities.collection(op.object), args);
  }
  if (kind === 'database') {
    const fn = DATABASE_OPS[op.name];
    if (!fn) throw new RunnerError(`operation ${op.name} on a database is not supported by the runner`);
    return fn(entities.database(op.object), args);
  }
  throw new RunnerError(
    `operation ${op.name} targets "${op.object}" (${kind ?? 'undefined'}), which the runner does not support`,
  );
}

/** A gap in the runner itself, as opposed to a driver or server error the case may expect. */
export class RunnerError extends Error {
  override name = 'RunnerError';
}
