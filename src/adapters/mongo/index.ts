// The public surface of the MongoDB adapter (the seed's names are spelled exactly).
export { DatabaseService } from './database-service';
export type { DatabaseServiceOptions } from './database-service-options';
export { mapMongoError } from './map-mongo-error';
export { keywordObjectId, ObjectIdSchema } from './keyword-object-id';
export { IsObjectId, ToObjectId } from './object-id.decorators';
export { ObjectId, idEquals, isObjectIdString, resolveObjectId, resolveQueryObjectId, toObjectId } from './object-id';
export { withIndexes } from './model-indexes';
