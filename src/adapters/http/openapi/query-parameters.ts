import { STANDARD_OPERATORS } from '../../../domain/query';
import { isPaginating } from '../../../application/query/pagination';
import type { ServiceDefinition } from '../../../application/services/service-definition';
import type { DtoSchemas } from './dto-schemas';
import { addComponent, refTo, type JsonSchema, type ParameterObject, type Reference } from './openapi-types';

/** The query parameters of one service: conditions per field and operator, and the filters. */
export interface ServiceQueryParameters {
  /** `field`, `field[$ne]`, `field[$in][]`, ... for every queryable field. */
  conditions: Reference[];
  /** `$limit`, `$skip`, `$sort`, `$select[]` and the definition's own filters. */
  findFilters: Reference[];
  /** `$select[]` and `$include[]`: what shapes an answer (the other methods read them besides conditions). */
  answerShape: Reference[];
  /** `$include[]` alone, when the service has relations (what `create` and custom methods read). */
  include: Reference[];
}

/** Operators whose value is a list: written `field[$in][]=a&field[$in][]=b`, so one value is a list too. */
const LIST_OPERATORS: ReadonlySet<string> = new Set(['$in', '$nin', '$all']);

const OPERATOR_MEANING: Readonly<Record<string, string>> = {
  $in: 'is one of the values',
  $nin: 'is none of the values',
  $lt: 'is less than the value',
  $lte: 'is at most the value',
  $gt: 'is greater than the value',
  $gte: 'is at least the value',
  $ne: 'is not equal to the value',
  $eq: 'equals the value',
  $regex: 'matches the regular expression (at most 1,024 characters, no nested repetition)',
  $options: 'flags of `$regex` (`i`, `m`, `s`, `x`)',
  $exists: 'is present (`true`) or absent (`false`)',
  $all: 'holds every value',
};

/** The schema of an operator's value for a field of schema `field`. */
function operatorSchema(operator: string, field: JsonSchema): JsonSchema {
  if (LIST_OPERATORS.has(operator)) return { type: 'array', items: field };
  if (operator === '$exists') return { type: 'boolean' };
  if (operator === '$regex' || operator === '$options' || operator === '$search') return { type: 'string' };
  return field;
}

/**
 * Registers the query parameters of `definition` under `components` (as `<base>.<field>.<op>`)
 * and returns references to them, in qs bracket syntax: `text[$ne]=x`, `likes[$gte]=2`,
 * `userId[$in][]=a&userId[$in][]=b`, `$sort[createdAt]=-1`, `$select[]=text`. URL strings are
 * converted to the field's type by the query DTO, so the schemas are the field types.
 */
export function serviceQueryParameters(
  definition: ServiceDefinition,
  schemas: DtoSchemas,
  base: string,
  idField: { name: string; schema: JsonSchema },
  recordFields: readonly string[],
  components: Record<string, ParameterObject>,
): ServiceQueryParameters {
  const add = (key: string, parameter: ParameterObject): Reference =>
    refTo('parameters', addComponent(components, `${base}.${key}`, parameter));
  const fields: Record<string, JsonSchema> = {
    [idField.name]: idField.schema,
    ...schemas.propertiesOf(definition.dto.query),
  };
  const operators = [...new Set([...STANDARD_OPERATORS, ...(definition.operators ?? [])])];
  const conditions: Reference[] = [];
  for (const [field, schema] of Object.entries(fields)) {
    conditions.push(add(field, { name: field, in: 'query', description: `\`${field}\` equals the value`, schema }));
    for (const operator of operators) {
      const list = LIST_OPERATORS.has(operator);
      conditions.push(
        add(`${field}.${operator.slice(1)}`, {
          name: `${field}[${operator}]${list ? '[]' : ''}`,
          in: 'query',
          description: `\`${field}\` ${OPERATOR_MEANING[operator] ?? `matches \`${operator}\``}`,
          schema: operatorSchema(operator, schema),
          ...(list ? { style: 'form', explode: true } : {}),
        }),
      );
    }
  }

  const paginate = definition.paginate;
  const limitSchema: JsonSchema = { type: 'integer', minimum: 0 };
  let limitText = 'How many records to return';
  if (isPaginating(paginate)) {
    if (paginate.max !== undefined) limitSchema.maximum = paginate.max;
    limitText +=
      `: ` +
      `default ${paginate.default ?? paginate.max}${paginate.max !== undefined ? `, at most ${paginate.max}` : ''}; ` +
      `\`0\` returns only the total`;
  }
  const sortable = Object.fromEntries(Object.keys(fields).map((field) => [field, { type: 'integer', enum: [1, -1] }]));
  const select = add('$select', {
    name: '$select[]',
    in: 'query',
    description: 'Fields to return (the id is always returned), e.g. `$select[]=text&$select[]=userId`',
    style: 'form',
    explode: true,
    schema: { type: 'array', items: { type: 'string', enum: [...recordFields] } },
  });
  const relations = Object.keys(definition.relations ?? {});
  const include =
    relations.length === 0
      ? []
      : [
          add('$include', {
            name: '$include[]',
            in: 'query',
            description:
              `Related records the answer carries: every one when absent, none with \`$include=\`, e.g. ` +
              `\`$include[]=${relations[0]}\``,
            style: 'form',
            explode: true,
            schema: { type: 'array', items: { type: 'string', enum: relations } },
          }),
        ];
  const findFilters = [
    add('$limit', { name: '$limit', in: 'query', description: limitText, schema: limitSchema }),
    add('$skip', {
      name: '$skip',
      in: 'query',
      description: 'How many matching records to skip',
      schema: { type: 'integer', minimum: 0 },
    }),
    add('$sort', {
      name: '$sort',
      in: 'query',
      description: 'Sort order by field: `1` ascending, `-1` descending, e.g. `$sort[createdAt]=-1`',
      style: 'deepObject',
      explode: true,
      schema: { type: 'object', properties: sortable, additionalProperties: false },
      // Docs pages prefill an object parameter from its example; without one they invent a sort by every field.
      example: {},
    }),
    select,
    ...include,
    ...Object.keys(definition.filters ?? {}).map((filter) =>
      add(filter, { name: filter, in: 'query', description: `The service's own \`${filter}\` filter`, schema: {} }),
    ),
  ];
  return { conditions, findFilters, answerShape: [select, ...include], include };
}
