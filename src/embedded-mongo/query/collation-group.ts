import type { Document } from 'bson';
import type { Context } from 'mingo';
import { stringFoldFor, type Collation } from './collation';
import { matchView } from './match-view';

type ExpressionOperator = (obj: unknown, expr: unknown, options: unknown) => unknown;

const FIRST_KEY = '__embeddedGroupKey';

/**
 * `{ $collationKey: [expression, collationSpec] }`: the expression's value with strings folded
 * under the collation, so `$group` puts 'Alice' and 'ALICE' together (mingo groups binary).
 */
export const collationKey: ExpressionOperator = (obj, expr, options) => {
  const [inner, spec] = expr as [unknown, Collation['spec']];
  const ifNull = (options as { context: Context }).context.getOperator(
    'expression' as never,
    '$ifNull',
  ) as ExpressionOperator;
  const value = ifNull(obj, [inner, null], options);
  const fold = stringFoldFor({ spec, strength: spec.strength ?? 3 });
  return fold ? matchView(value, fold) : value;
};

/**
 * Rewrites top-level `$group` stages to group by the collation key while reporting the first
 * original value as `_id`, which is what mongod returns for a collated group.
 */
export function collateGroups(stages: Document[], collation: Collation | undefined): Document[] {
  if (!stringFoldFor(collation)) return stages;
  return stages.flatMap((stage) => {
    const group = stage.$group as Document | undefined;
    if (
      !group ||
      typeof group !== 'object' ||
      group._id === null ||
      (typeof group._id !== 'object' && typeof group._id !== 'string')
    )
      return [stage];
    return [
      {
        $group: { ...group, _id: { $collationKey: [group._id, collation!.spec] }, [FIRST_KEY]: { $first: group._id } },
      },
      { $set: { _id: `$${FIRST_KEY}` } },
      { $unset: FIRST_KEY },
    ];
  });
}
