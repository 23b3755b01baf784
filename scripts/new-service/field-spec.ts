import { isObjectPrototypeName } from '../../src/application/app/reserved-names';

/** The field types the generator knows, with their DTO decorators and TypeScript types. */
export const FIELD_TYPES = {
  string: { ts: 'string', validators: ['IsString()', 'MaxLength(1000)'] },
  number: { ts: 'number', validators: ['IsNumber({ allowNaN: false, allowInfinity: false })'] },
  integer: { ts: 'number', validators: ['IsInt()'] },
  boolean: { ts: 'boolean', validators: ['IsBoolean()'] },
} as const;

export type FieldType = keyof typeof FIELD_TYPES;

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** `name:type?`: the field may be left out on create. */
  optional: boolean;
}

/** Names the generated code uses itself or that every service has. */
const RESERVED_FIELDS = new Set(['_id', 'id', 'userId', '__proto__', 'constructor', 'prototype']);

/**
 * Parses `--fields "title:string,done:boolean?"`; throws one line naming what is wrong.
 */
export function parseFields(spec: string): FieldSpec[] {
  const fields: FieldSpec[] = [];
  for (const part of spec
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = /^([a-zA-Z][a-zA-Z0-9]{0,39}):([a-z]+)(\?)?$/.exec(part);
    if (!match)
      throw new Error(
        `--fields: "${part}" is not name:type (name: a letter then letters or digits; ` +
          `type: ${Object.keys(FIELD_TYPES).join(', ')}; ? after the type for an optional field)`,
      );
    const [, name, type, optional] = match;
    if (!(type in FIELD_TYPES))
      throw new Error(
        `--fields: "${name}" has the unknown type "${type}" (known: ${Object.keys(FIELD_TYPES).join(', ')})`,
      );
    if (RESERVED_FIELDS.has(name)) throw new Error(`--fields: "${name}" is set by the server; choose another name`);
    // A record with its own `toString` or `valueOf` breaks every conversion of it (validation, queries, logs).
    if (isObjectPrototypeName(name))
      throw new Error(
        `--fields: "${name}" is a name every JavaScript object has (Object.prototype.${name}); choose another name`,
      );
    if (fields.some((field) => field.name === name)) throw new Error(`--fields: "${name}" is listed twice`);
    fields.push({ name, type: type as FieldType, optional: optional === '?' });
  }
  if (fields.length === 0)
    throw new Error('--fields needs at least one name:type, e.g. --fields "title:string,done:boolean"');
  return fields;
}
