import type { ClassConstructor } from 'class-transformer';
import { classTransformer, classValidator } from './validation-libraries';

/** What a DTO lets data contain: its fields, and which of them hold nested DTOs. */
export interface DtoShape {
  /** Every property with a validation decorator: exactly what class-validator's whitelist keeps. */
  readonly fields: ReadonlySet<string>;
  /** Fields under `@ValidateNested()`, with the class their object (or each array element) becomes. */
  readonly nested: ReadonlyMap<string, ClassConstructor<object>>;
}

const shapes = new WeakMap<ClassConstructor<object>, DtoShape>();

/** The shape of `dto`, read once from the decorators' metadata. */
export function shapeOf(dto: ClassConstructor<object>): DtoShape {
  let shape = shapes.get(dto);
  if (shape === undefined) {
    shape = readShape(dto);
    shapes.set(dto, shape);
  }
  return shape;
}

function readShape(dto: ClassConstructor<object>): DtoShape {
  // The same metadata (no groups, inherited fields included) class-validator's whitelist reads.
  const metadatas = classValidator()
    .getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', false, false, undefined);
  const fields = new Set(metadatas.map((metadata) => metadata.propertyName));
  const nested = new Map<string, ClassConstructor<object>>();
  for (const metadata of metadatas) {
    if (metadata.type !== 'nestedValidation') continue;
    const type = nestedClass(dto, metadata.propertyName);
    if (type !== undefined) nested.set(metadata.propertyName, type);
  }
  return { fields, nested };
}

/**
 * The class class-transformer makes of an object under `field` (or of an array element there):
 * asked of class-transformer itself with an empty object, so `@Type` and its options are read
 * the way validation will apply them.
 */
function nestedClass(dto: ClassConstructor<object>, field: string): ClassConstructor<object> | undefined {
  const { plainToInstance } = classTransformer();
  const single = (plainToInstance(dto, { [field]: {} }) as Record<string, unknown>)[field];
  const list = (plainToInstance(dto, { [field]: [{}] }) as Record<string, unknown>)[field];
  const element = Array.isArray(list) ? list[0] : undefined;
  for (const candidate of [single, element]) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const type = (candidate as object).constructor as ClassConstructor<object> | undefined;
    if (type !== undefined && type !== Object && shapeHasFields(type)) return type;
  }
  return undefined;
}

function shapeHasFields(type: ClassConstructor<object>): boolean {
  return (
    classValidator().getMetadataStorage().getTargetValidationMetadatas(type, '', false, false, undefined).length > 0
  );
}
