import { ObjectId, type Document } from 'bson';
import { geoIntersectsOperator, geoWithinOperator } from '../geo/geo-predicates';
import { Context, Query } from 'mingo';
import { BIT_QUERY_OPERATORS } from './bit-test';
import { bsonTypeOperator } from './bson-type';
import { NO_BUCKET_MATCHED, noBucketMatched } from './bucket-stage';
import { collationKey } from './collation-group';
import { EXACT_QUERY_OPERATORS } from './exact-number-filter';
import { TYPED_ACCUMULATORS, TYPED_EXPRESSION_OPERATORS } from './typed-arithmetic';
import { PLAIN_VIEW_STAGE, plainViewStage } from './typed-pipeline';
import { TYPED_SELECTION_OPERATORS } from './typed-selection';
import { TYPED_STAGES } from './typed-stages';
import type { Collation } from './collation';
import { ORDERED_PROJECT, orderedProject } from './ordered-project';

/** mingo's option types, reached through its public constructor (subpath types need node16 resolution). */
export type MingoOptions = NonNullable<ConstructorParameters<typeof Query>[1]>;
type ExpressionOperator = (obj: unknown, expr: unknown, options: unknown) => unknown;

/**
 * `$toObjectId`, which mingo lacks. The argument is evaluated through `$ifNull` (an identity on
 * non-null values), so any expression works as the input without reaching into mingo internals.
 */
const toObjectId: ExpressionOperator = (obj, expr, options) => {
  const ifNull = (options as { context: Context }).context.getOperator(
    'expression' as never,
    '$ifNull',
  ) as ExpressionOperator;
  const value = ifNull(obj, [expr, null], options);
  if (value === null || value === undefined || value instanceof ObjectId) return value ?? null;
  if (typeof value === 'string' && /^[0-9a-fA-F]{24}$/.test(value)) return new ObjectId(value);
  throw new Error(`Failed to parse objectId '${String(value)}' in $convert with no onError value`);
};

/**
 * The server's operators, built on first use: the typed stages compile filters and so import this
 * module back, which would otherwise see them undefined at load time.
 */
const serverOperators = once(() => {
  const expression: Record<string, ExpressionOperator> = {
    $toObjectId: toObjectId,
    $collationKey: collationKey,
    [NO_BUCKET_MATCHED]: noBucketMatched,
    ...TYPED_EXPRESSION_OPERATORS,
    ...TYPED_SELECTION_OPERATORS,
  };
  const types = {
    expression: expression as never,
    accumulator: TYPED_ACCUMULATORS as never,
    pipeline: { [PLAIN_VIEW_STAGE]: plainViewStage, [ORDERED_PROJECT]: orderedProject, ...TYPED_STAGES } as never,
  };
  return {
    names: new Set([
      ...Object.keys(expression),
      ...Object.keys(TYPED_ACCUMULATORS),
      PLAIN_VIEW_STAGE,
      ORDERED_PROJECT,
      ...Object.keys(TYPED_STAGES),
    ]),
    context: Context.init(types),
    /**
     * Adds the server's query operators (see rename-served-operators.ts), the exact comparisons and the geo predicates.
     */
    filterContext: Context.init({
      ...types,
      query: {
        $bsonType: bsonTypeOperator,
        ...BIT_QUERY_OPERATORS,
        ...EXACT_QUERY_OPERATORS,
        $geoWithin: geoWithinOperator,
        $geoIntersects: geoIntersectsOperator,
      } as never,
    }),
  };
});

function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** Deep enough for any real expression; deeper input simply gets the server context. */
const MAX_SCAN_DEPTH = 64;

export interface EvaluationSettings {
  readonly collation?: Collation;
  readonly variables?: Document;
  readonly collectionResolver?: (name: string) => Document[];
  /** The filter uses `$bsonType`, the exact number comparisons or a geo predicate. */
  readonly typedFilter?: boolean;
}

/**
 * Options for every mingo call the server makes. mingo merges a custom context into its
 * default one on every Query/Aggregator (~100 µs), so the server's operators are added only
 * when one of the `inspected` expressions uses them.
 */
export function mingoOptions(settings: EvaluationSettings = {}, ...inspected: unknown[]): Partial<MingoOptions> {
  return {
    idKey: '_id',
    ...(settings.typedFilter
      ? { context: serverOperators().filterContext }
      : inspected.some((value) => usesServerOperators(value, 0))
        ? { context: serverOperators().context }
        : {}),
    ...(settings.collation ? { collation: settings.collation.spec } : {}),
    ...(settings.variables ? { variables: settings.variables } : {}),
    ...(settings.collectionResolver ? { collectionResolver: settings.collectionResolver } : {}),
  };
}

function usesServerOperators(value: unknown, depth: number): boolean {
  if (depth > MAX_SCAN_DEPTH) return true;
  if (Array.isArray(value)) return value.some((item) => usesServerOperators(item, depth + 1));
  if (value === null || typeof value !== 'object' || value.constructor !== Object) return false;
  for (const [key, inner] of Object.entries(value)) {
    if (serverOperators().names.has(key) || usesServerOperators(inner, depth + 1)) return true;
  }
  return false;
}
