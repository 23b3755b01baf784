import type { ClassConstructor } from 'class-transformer';
import type * as ClassValidatorJsonSchema from 'class-validator-jsonschema';
import type * as ClassTransformerStorage from 'class-transformer/types/storage';
import { copyWith } from '../../../domain/plain-record';
import type { JsonSchema } from './openapi-types';

const SCHEMA_REF = '#/components/schemas/';

/**
 * JSON schemas of DTO classes, read from their class-validator decorators (and class-transformer's
 * `@Type` for nested DTOs) by class-validator-jsonschema. The library is loaded here, when a
 * document is built, never with the package. Schemas are named after their classes, so two DTO
 * classes of one name cannot both be documented: that is refused instead of one silently winning.
 */
export class DtoSchemas {
  private readonly generated: Record<string, JsonSchema>;
  private readonly classes = new Map<string, ClassConstructor<object>>();

  constructor() {
    const { validationMetadatasToSchemas } = require('class-validator-jsonschema') as typeof ClassValidatorJsonSchema;
    const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof ClassTransformerStorage;
    this.generated = validationMetadatasToSchemas({
      refPointerPrefix: SCHEMA_REF,
      classTransformerMetadataStorage: defaultMetadataStorage,
    }) as Record<string, JsonSchema>;
  }

  /** The component name of `dto` (its class name), registering it for the document. */
  nameOf(dto: ClassConstructor<object>): string {
    const known = this.classes.get(dto.name);
    if (known !== undefined && known !== dto)
      throw new Error(`Two DTO classes are named '${dto.name}'; the OpenAPI document needs unique DTO class names`);
    this.classes.set(dto.name, dto);
    return dto.name;
  }

  /** The declared properties of `dto`, each with its JSON schema. */
  propertiesOf(dto: ClassConstructor<object>): Record<string, JsonSchema> {
    return { ...((this.generated[dto.name]?.properties as Record<string, JsonSchema> | undefined) ?? {}) };
  }

  /** The properties `dto` requires. */
  requiredOf(dto: ClassConstructor<object>): string[] {
    return [...((this.generated[dto.name]?.required as string[] | undefined) ?? [])];
  }

  /**
   * The schema of a named DTO. Validation whitelists the declared fields and refuses any other
   * (`forbidNonWhitelisted`), so the schema allows no additional properties.
   */
  schemaOf(name: string): JsonSchema | undefined {
    const generated = this.generated[name];
    if (generated === undefined)
      return this.classes.has(name) ? { type: 'object', additionalProperties: false } : undefined;
    return copyWith(generated, { additionalProperties: false });
  }
}

/** Every `#/components/schemas/<name>` a JSON value refers to. */
export function schemaReferencesIn(value: unknown, found: Set<string> = new Set()): Set<string> {
  const stack: unknown[] = [value];
  for (let steps = 0; stack.length > 0 && steps < 1_000_000; steps += 1) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, child] of Object.entries(item)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMA_REF))
        found.add(child.slice(SCHEMA_REF.length));
      else stack.push(child);
    }
  }
  return found;
}
