import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

type DataValidationCxt = NonNullable<Parameters<SchemaValidateFunction>[3]>;
import { toObjectId } from './object-id';

const invalid = [{ keyword: 'objectid', message: 'must be a valid ObjectId', params: { keyword: 'objectid' } }];

const validateObjectId: SchemaValidateFunction = (
  enabled: unknown,
  data: unknown,
  _parentSchema?: unknown,
  cxt?: DataValidationCxt,
) => {
  if (enabled === false) return true;
  const id = toObjectId(data);
  if (!id) {
    validateObjectId.errors = invalid;
    return false;
  }
  // Replace in place so the validated data carries the driver's ObjectId (also re-wraps ObjectIds of
  // another bson copy). A root value has no parent to write into; it is validated only.
  if (id !== data && cxt?.parentData !== undefined) cxt.parentData[cxt.parentDataProperty] = id;
  return true;
};

/**
 * The Ajv keyword `objectid` (`ajv.addKeyword(keywordObjectId)`): the value must be an ObjectId
 * (of any bson copy) or a 24-hex string, and a string is replaced in place by an ObjectId.
 * Invalid values fail validation (never throw). `objectid: false` switches the check off.
 */
export const keywordObjectId: FuncKeywordDefinition = {
  keyword: 'objectid',
  modifying: true,
  errors: true,
  schemaType: 'boolean',
  validate: validateObjectId,
};

/**
 * A JSON schema for an ObjectId property: an ObjectId instance or a 24-hex string that the
 * `objectid` keyword converts. Works only where `keywordObjectId` is registered.
 */
export function ObjectIdSchema(): { anyOf: [{ type: 'string'; objectid: true }, { type: 'object'; objectid: true }] } {
  return {
    anyOf: [
      { type: 'string', objectid: true },
      { type: 'object', objectid: true },
    ],
  };
}
