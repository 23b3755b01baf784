import type { Collection, Document } from 'mongodb';
import type { ServiceOptions } from '../../ports/service-options';

/** Options of `new DatabaseService(options)` (the seed's adapter options table plus the shared ones). */
export interface DatabaseServiceOptions<T extends Document = Document> extends ServiceOptions {
  /**
   * The collection, or a promise of it (e.g. an async function's return value, not awaited), so
   * a service can be registered before the client has connected. `params.adapter.Model`
   * overrides it for one call.
   */
  Model: Promise<Collection<T>> | Collection<T>;
  /** Keep ids as they are instead of turning 24-hex strings into ObjectIds (for string `_id`s). */
  disableObjectify?: boolean;
  /**
   * Count pages with `estimatedDocumentCount` (collection metadata, no scan) instead of an
   * exact `countDocuments`. Used only when the query has no conditions, no `params.pipeline` is
   * given and no transaction is running; otherwise the exact count is used, because the
   * estimate ignores the query and cannot run inside a transaction.
   */
  useEstimatedDocumentCount?: boolean;
  /**
   * Update operators that patch data may carry (e.g. `['$inc', '$push', '$addToSet']`). Default
   * none: plain patch data becomes `$set`, and any `$` key is a 400.
   */
  updateOperators?: string[];
}
