// bson, not the driver: the same ObjectId class (the driver re-exports it) without loading the driver.
import { ObjectId } from 'bson';
import { BadRequest } from '../../domain/errors';
import { echo } from '../../domain/echo';
import { mapOperands } from '../../domain/query-conditions';

export { ObjectId };

// Only the 24-hex form: ObjectId.isValid also accepts any 12-character string ("lessonKTDA03").
const HEX_ID = /^[0-9a-fA-F]{24}$/;

/** True for a 24-hex string. */
export function isObjectIdString(value: unknown): value is string {
  return typeof value === 'string' && HEX_ID.test(value);
}

/**
 * True for an ObjectId of the driver's bson or of another bson copy (recognised by `_bsontype`
 * on a class instance, so a plain `{ _bsontype: 'ObjectId' }` from JSON is not one).
 */
export function isObjectIdLike(value: unknown): value is { toHexString(): string } {
  if (value instanceof ObjectId) return true;
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return false;
  const candidate = value as { _bsontype?: unknown; toHexString?: unknown };
  return candidate._bsontype === 'ObjectId' && typeof candidate.toHexString === 'function';
}

/** The value as the driver's ObjectId when it is one (any bson copy) or a 24-hex string; else undefined. */
export function toObjectId(value: unknown): ObjectId | undefined {
  if (value instanceof ObjectId) return value;
  if (isObjectIdString(value)) return new ObjectId(value);
  if (isObjectIdLike(value)) {
    const hex = value.toHexString();
    return isObjectIdString(hex) ? new ObjectId(hex) : undefined;
  }
  return undefined;
}

/** Compares ids whatever their form (ObjectId, foreign ObjectId, hex string). */
export function idEquals(a: unknown, b: unknown): boolean {
  const left = toObjectId(a)?.toHexString() ?? a;
  const right = toObjectId(b)?.toHexString() ?? b;
  return left === right;
}

/**
 * Converts a value to an ObjectId: usable as a property resolver (`(value, ...) => ObjectId`) or
 * called plainly. `undefined`/`null` pass through (an absent property stays absent); anything
 * else that is not an ObjectId or a 24-hex string is a 400.
 */
export function resolveObjectId(value: undefined, ...rest: unknown[]): undefined;
export function resolveObjectId(value: null, ...rest: unknown[]): null;
export function resolveObjectId(value: unknown, ...rest: unknown[]): ObjectId;
export function resolveObjectId(value: unknown, ..._rest: unknown[]): ObjectId | null | undefined {
  if (value === undefined || value === null) return value;
  const id = toObjectId(value);
  if (!id) throw new BadRequest('Invalid ObjectId', { value: typeof value === 'string' ? echo(value) : typeof value });
  return id;
}

/**
 * Converts a query value on an ObjectId field: a plain id, or the ids a condition compares with
 * (inside `$in`, `$nin`, `$all`, `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$not`), as
 * `DatabaseService` converts its id field. Other operators (`$exists`, ...) are kept as they are;
 * unlike Feathers they are not dropped. Invalid ids are a 400.
 */
export function resolveQueryObjectId(value: unknown, ..._rest: unknown[]): unknown {
  if (value === undefined || value === null) return value;
  return mapOperands(value, (item) => resolveObjectId(item));
}
