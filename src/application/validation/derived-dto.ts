import type { ClassConstructor } from 'class-transformer';
import { copyWith } from '../../domain/plain-record';
import { shapeOf } from './dto-shape';
import { classTransformer, classTransformerStorage, classValidator } from './validation-libraries';

/*
 * DTOs derived from another one, so that each field's validators are written once (in the create
 * DTO) and patch and query DTOs follow it. A derived class holds copies of the source fields'
 * metadata as its own: class-validator's (validation, the data-shape check, the query hook's
 * field list, the OpenAPI schemas all read it), class-transformer's (`@Type`, `@Transform`,
 * `@Expose`, `@Exclude`) and the declared type TypeScript emits (query conversion reads it).
 *
 * The OpenAPI document names a DTO's schema after its class. Used as it is, a derived class needs
 * the name the document should show: `export const PatchUserDto = partialOf(CreateUserDto, 'PatchUserDto')`.
 * Extended, the subclass names it and may add fields: `class PatchMessageDto extends partialOf(CreateMessageDto) { ...
 * }`.
 */

/** Every field of `source`, each optional, with the same validators. */
export function partialOf<T extends object>(
  source: ClassConstructor<T>,
  name = `Partial${source.name}`,
): ClassConstructor<Partial<T>> {
  return derive(source, [...shapeOf(source).fields], { optional: true, name });
}

/** Only `fields` of `source`, with the same validators (required ones stay required). */
export function pickOf<T extends object, K extends keyof T & string>(
  source: ClassConstructor<T>,
  fields: readonly K[],
  name = `Picked${source.name}`,
): ClassConstructor<Pick<T, K>> {
  return derive(source, fields, { optional: false, name });
}

/**
 * The queryable fields of `source`: `fields`, or by default every field it validates but update
 * operators (`$inc`), with the same validators, each optional. A field added to `source` is then
 * queryable with no other edit.
 */
export function queryOf<T extends object, K extends keyof T & string>(
  source: ClassConstructor<T>,
  fields: readonly K[] = fieldsOf(source).filter((field) => !field.startsWith('$')) as K[],
  name = `${source.name}Query`,
): ClassConstructor<Partial<Pick<T, K>>> {
  return derive(source, fields, { optional: true, name });
}

/** The fields a DTO validates (inherited ones included), in declaration order: e.g. what a policy shows. */
export function fieldsOf(dto: ClassConstructor<object>): string[] {
  return [...shapeOf(dto).fields];
}

function derive(
  source: ClassConstructor<object>,
  fields: readonly string[],
  { optional, name }: { optional: boolean; name: string },
): ClassConstructor<any> {
  const known = shapeOf(source).fields;
  const unknown = fields.filter((field) => !known.has(field));
  if (unknown.length > 0) throw new Error(`${source.name} has no validated field named ${unknown.join(', ')}`);
  const derived = class {};
  Object.defineProperty(derived, 'name', { value: name });
  const chosen = new Set(fields);
  const storage = classValidator().getMetadataStorage();
  for (const metadata of storage.getTargetValidationMetadatas(source, '', false, false, undefined)) {
    if (chosen.has(metadata.propertyName))
      storage.addValidationMetadata(
        Object.assign(Object.create(Object.getPrototypeOf(metadata)), metadata, { target: derived }),
      );
  }
  for (const field of fields) {
    copyTransformerMetadata(source, derived, field);
    copyDeclaredType(source, derived, field);
    if (optional) classValidator().IsOptional()(derived.prototype, field);
  }
  return derived;
}

function copyTransformerMetadata(
  source: ClassConstructor<object>,
  derived: ClassConstructor<object>,
  field: string,
): void {
  const storage = classTransformerStorage();
  const type = storage.findTypeMetadata(source, field);
  if (type) storage.addTypeMetadata(copyWith(type, { target: derived }));
  const expose = storage.findExposeMetadata(source, field);
  if (expose) storage.addExposeMetadata(copyWith(expose, { target: derived }));
  const exclude = storage.findExcludeMetadata(source, field);
  if (exclude) storage.addExcludeMetadata(copyWith(exclude, { target: derived }));
  // Each transformation direction finds the transforms that apply to it; a transform for all directions is found by
  // each.
  const { PLAIN_TO_CLASS, CLASS_TO_PLAIN, CLASS_TO_CLASS } = classTransformer().TransformationType;
  const transforms = new Set(
    [PLAIN_TO_CLASS, CLASS_TO_PLAIN, CLASS_TO_CLASS].flatMap((direction) =>
      storage.findTransformMetadatas(source, field, direction),
    ),
  );
  for (const transform of transforms) storage.addTransformMetadata(copyWith(transform, { target: derived }));
}

/** The `design:type` TypeScript emits for the field (reflect-metadata, where loaded). */
function copyDeclaredType(source: ClassConstructor<object>, derived: ClassConstructor<object>, field: string): void {
  const reflect = Reflect as unknown as {
    getMetadata?: (key: string, target: object, property: string) => unknown;
    defineMetadata?: (key: string, value: unknown, target: object, property: string) => void;
  };
  const type = reflect.getMetadata?.('design:type', source.prototype, field);
  if (type !== undefined) reflect.defineMetadata?.('design:type', type, derived.prototype, field);
}
