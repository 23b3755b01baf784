import type { Document } from 'bson';

/**
 * A `$group` that only counts: a constant `_id` and integer `$sum`s, as the driver's
 * `countDocuments` sends (`{ _id: 1, n: { $sum: 1 } }`). Returns the stage's output for a number
 * of input documents, so a count needs no documents pushed through mingo; undefined otherwise.
 * Like mingo (and mongod), no input gives no group.
 */
export function countingGroup(stage: Document): ((count: number) => Document[]) | undefined {
  const spec: unknown = stage.$group;
  if (spec === null || typeof spec !== 'object' || spec.constructor !== Object || !('_id' in spec)) return undefined;
  const { _id: id, ...accumulators } = spec as Document;
  if (id !== null && typeof id !== 'number' && typeof id !== 'boolean') return undefined;
  const sums: Array<[string, number]> = [];
  for (const [field, accumulator] of Object.entries(accumulators)) {
    if (accumulator === null || typeof accumulator !== 'object' || accumulator.constructor !== Object) return undefined;
    const keys = Object.keys(accumulator as Document);
    const addend: unknown = (accumulator as Document).$sum;
    if (keys.length !== 1 || !Number.isSafeInteger(addend) || field.startsWith('$') || field.includes('.'))
      return undefined;
    sums.push([field, addend as number]);
  }
  return (count) =>
    count === 0 ? [] : [{ _id: id, ...Object.fromEntries(sums.map(([field, addend]) => [field, addend * count])) }];
}
