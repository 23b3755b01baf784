import type { ValidationOptions } from 'class-validator';
import { classTransformer, classValidator } from '../../application/validation/validation-libraries';
import { toObjectId } from './object-id';

export const IS_OBJECT_ID = 'isObjectId';

/**
 * class-validator: the property is an ObjectId (any bson copy) or a 24-hex string. Use
 * `{ each: true }` for arrays. Pair it with `@ToObjectId()` to store real ObjectIds.
 */
export function IsObjectId(validationOptions?: ValidationOptions): PropertyDecorator {
  const { ValidateBy, buildMessage } = classValidator();
  return ValidateBy(
    {
      name: IS_OBJECT_ID,
      validator: {
        validate: (value: unknown) => toObjectId(value) !== undefined,
        defaultMessage: buildMessage(
          (eachPrefix) => `${eachPrefix}$property must be a valid ObjectId`,
          validationOptions,
        ),
      },
    },
    validationOptions,
  );
}

/**
 * class-transformer (plain -> class): converts a 24-hex string, or each one of an array, to an
 * ObjectId. Other values are left as they are, so `@IsObjectId()` reports them.
 */
export function ToObjectId(): PropertyDecorator {
  return classTransformer().Transform(
    ({ value }) => {
      const convert = (item: unknown) => toObjectId(item) ?? item;
      return Array.isArray(value) ? value.map(convert) : convert(value);
    },
    { toClassOnly: true },
  );
}
