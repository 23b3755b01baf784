import { copyWith } from '../../../domain/plain-record';
import { STANDARD_METHODS } from '../../../ports/service.port';
import { isPaginating } from '../../../application/query/pagination';
import { idOf, type ServiceDefinition } from '../../../application/services/service-definition';
import type { DtoSchemas } from './dto-schemas';
import {
  addComponent,
  jsonContent,
  refTo,
  type JsonSchema,
  type OpenApiDocument,
  type OperationObject,
  type PathItemObject,
  type Reference,
} from './openapi-types';
import { serviceQueryParameters } from './query-parameters';
import { BEARER_SCHEME, errorResponses, type ErrorResponseName } from './shared-components';

export interface ServicePathsInput {
  definition: ServiceDefinition;
  schemas: DtoSchemas;
  /** Whether a call of `method` needs a bearer token. */
  needsToken(method: string): boolean;
  /** Where the service's record, page and parameter components go. */
  components: OpenApiDocument['components'];
  /** The definition of another described service (a relation's target), if it is one. */
  definitionAt(path: string): ServiceDefinition | undefined;
}

/** `chat-rooms/archive` -> `ChatRoomsArchive`: the prefix of a service's component names. */
export function componentBase(path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((word) => word[0].toUpperCase() + word.slice(1)).join('') || 'Root';
}

function idSchema(type: 'objectid' | 'uuid'): JsonSchema {
  return type === 'uuid'
    ? { type: 'string', format: 'uuid' }
    : { type: 'string', pattern: '^[0-9a-fA-F]{24}$', description: 'ObjectId (24 hex digits)' };
}

/**
 * What a record looks like: the record DTO's fields (else those it is created with and queried
 * by), never hidden ones. A declared record DTO names every field: no other may appear.
 */
export function recordFields(definition: ServiceDefinition, schemas: DtoSchemas): Record<string, JsonSchema> {
  const { dto } = definition;
  const fields: Record<string, JsonSchema> = dto.record
    ? schemas.propertiesOf(dto.record)
    : copyWith(schemas.propertiesOf(dto.query), schemas.propertiesOf(dto.create));
  for (const name of definition.hiddenFields ?? []) delete fields[name];
  return fields;
}

/**
 * Each relation an answer may carry: the target's record narrowed to the relation's fields, or
 * null (the related record is gone, or the caller may not read it).
 */
function relatedRecordSchemas(
  definition: ServiceDefinition,
  schemas: DtoSchemas,
  definitionAt: (path: string) => ServiceDefinition | undefined,
): Record<string, JsonSchema> {
  const related: Record<string, JsonSchema> = {};
  for (const [name, relation] of Object.entries(definition.relations ?? {})) {
    const target = definitionAt(relation.service);
    const description =
      `The \`${relation.service}\` record whose \`${relation.targetField ?? '_id'}\` is ` +
      `\`${relation.field}\` (with \`$include\`), as its policy shows it; null when there is none to show`;
    if (!target) {
      related[name] = { type: ['object', 'null'], description };
      continue;
    }
    const targetId = idOf(target);
    const all: Record<string, JsonSchema> = {
      [targetId.field]: idSchema(targetId.type),
      ...recordFields(target, schemas),
    };
    const carried = relation.select ? new Set([relation.targetField ?? '_id', ...relation.select]) : undefined;
    const properties = Object.fromEntries(Object.entries(all).filter(([field]) => !carried || carried.has(field)));
    related[name] = { type: ['object', 'null'], description, properties, additionalProperties: false };
  }
  return related;
}

/**
 * The routes of one service in the HTTP mapping: `GET /<path>` find, `POST /<path>` create and
 * the custom methods (header `X-Service-Method`), `GET|PUT|PATCH|DELETE /<path>/{id}`, and
 * `PATCH|DELETE /<path>` for the methods `multi` allows.
 */
export function servicePaths({
  definition,
  schemas,
  needsToken,
  components,
  definitionAt,
}: ServicePathsInput): Record<string, PathItemObject> {
  const { path, methods, dto } = definition;
  const has = (method: string) => methods.includes(method);
  const multi = (method: string) =>
    definition.multi === true || (Array.isArray(definition.multi) && definition.multi.includes(method));
  const base = componentBase(path);
  const id = idOf(definition);
  const hidden = new Set(definition.hiddenFields ?? []);

  const fields = recordFields(definition, schemas);
  const record = `${base}Record`;
  const related = relatedRecordSchemas(definition, schemas, definitionAt);
  components.schemas[record] = {
    type: 'object',
    required: [id.field],
    properties: { [id.field]: idSchema(id.type), ...fields, ...related },
    ...(dto.record ? { additionalProperties: false } : {}),
  };
  const recordRef = refTo('schemas', record);
  const page = `${base}Page`;
  components.schemas[page] = {
    type: 'object',
    required: ['total', 'limit', 'skip', 'data'],
    properties: {
      total: { type: 'integer', minimum: 0, description: 'Matching records, ignoring `$limit` and `$skip`' },
      limit: { type: 'integer', minimum: 0 },
      skip: { type: 'integer', minimum: 0 },
      data: { type: 'array', items: recordRef },
    },
  };
  // `$select` and `$sort` name queryable fields only (the query hook refuses others).
  const queryable = Object.keys(schemas.propertiesOf(dto.query)).filter((name) => !hidden.has(name));
  const query = serviceQueryParameters(
    definition,
    schemas,
    path,
    { name: id.field, schema: idSchema(id.type) },
    [id.field, ...queryable],
    components.parameters,
  );
  const idParameter = addComponent(components.parameters, `${path}.route.id`, {
    name: 'id',
    in: 'path',
    required: true,
    description: `The record's \`${id.field}\``,
    schema: idSchema(id.type),
  });

  const unique = (definition.indexes ?? []).some((index) => index.unique);
  // `methods`: the methods the operation calls (the shared POST calls several); a token is
  // required when each of them needs one, optional when only some do.
  // One component for every service's writes.
  const idempotencyKey = 'Idempotency-Key';
  components.parameters[idempotencyKey] ??= {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Makes the write happen once: the same request with the same key (per caller, kept `IDEMPOTENCY_TTL_MS`) gets ' +
      'the first answer again, marked `Idempotent-Replayed: true`; the same key with another request is a 422. A ' +
      'quoted string, as the IETF draft writes it, or bare: 1-255 visible characters, e.g. a UUID',
    required: false,
    schema: { type: 'string', minLength: 1, maxLength: 257 },
  };
  const operation = (
    methods: string | string[],
    summary: string,
    parts: Partial<OperationObject>,
    errors: ErrorResponseName[],
  ): OperationObject => {
    const called = typeof methods === 'string' ? [methods] : methods;
    const secured = called.filter((method) => needsToken(method)).length;
    // Writes take an Idempotency-Key (reads are idempotent already).
    if (called.some((method) => method !== 'find' && method !== 'get')) {
      parts = copyWith(parts, { parameters: [...(parts.parameters ?? []), refTo('parameters', idempotencyKey)] });
      errors = [...new Set<ErrorResponseName>([...errors, 'Conflict', 'Unprocessable'])];
    }
    const names: ErrorResponseName[] = [
      'BadRequest',
      ...(secured > 0 ? ['NotAuthenticated' as const] : []),
      ...errors,
      'Error',
    ];
    const security: OperationObject['security'] =
      secured === 0 ? undefined : secured === called.length ? [{ [BEARER_SCHEME]: [] }] : [{ [BEARER_SCHEME]: [] }, {}];
    return {
      operationId: `${path}.${called[0]}`,
      summary,
      tags: [path],
      ...parts,
      responses: copyWith(parts.responses ?? {}, errorResponses(...names)),
      ...(security ? { security } : {}),
    };
  };
  const body = (schema: JsonSchema, description?: string) => ({
    required: true,
    description,
    content: jsonContent(schema),
  });
  const ok = (description: string, schema: JsonSchema) => ({ '200': { description, content: jsonContent(schema) } });
  const conflict: ErrorResponseName[] = unique ? ['Conflict'] : [];
  const itemQuery = [...query.conditions, ...query.answerShape];
  const manyRecords = { type: 'array', items: recordRef };
  const dtoRef = (dtoClass: Parameters<DtoSchemas['nameOf']>[0]) => refTo('schemas', schemas.nameOf(dtoClass));

  const collection: PathItemObject = {};
  const item: PathItemObject = { parameters: [refTo('parameters', idParameter)] };
  if (has('find')) {
    const paginated = isPaginating(definition.paginate);
    collection.get = operation(
      'find',
      `Find ${path}`,
      {
        description:
          `Conditions per field in qs bracket syntax (\`text[$ne]=x\`, \`likes[$gte]=2\`); ` +
          `\`$or[0][field]=a&$or[1][field]=b\` and \`$and\` combine them.${paginated ? ' The answer is a page.' : ''}`,
        parameters: [...query.conditions, ...query.findFilters],
        responses: ok(
          paginated ? 'A page of records' : 'The matching records',
          paginated ? refTo('schemas', page) : manyRecords,
        ),
      },
      [],
    );
  }
  const post = collectionPost(definition, {
    dtoRef,
    recordRef,
    operation,
    conflict,
    multi: multi('create'),
    include: query.include,
  });
  if (post) collection.post = post;
  if (has('patch') && multi('patch')) {
    collection.patch = operation(
      'patch',
      `Patch every matching record of ${path}`,
      {
        operationId: `${path}.patchMany`,
        parameters: query.conditions,
        requestBody: body(dtoRef(dto.patch)),
        responses: ok('The patched records', manyRecords),
      },
      conflict,
    );
  }
  if (has('remove') && multi('remove')) {
    collection.delete = operation(
      'remove',
      `Remove every matching record of ${path}`,
      {
        operationId: `${path}.removeMany`,
        parameters: query.conditions,
        responses: ok('The removed records', manyRecords),
      },
      [],
    );
  }
  if (has('get'))
    item.get = operation(
      'get',
      `Get one record of ${path}`,
      { parameters: itemQuery, responses: ok('The record', recordRef) },
      ['NotFound'],
    );
  if (has('update')) {
    item.put = operation(
      'update',
      `Replace one record of ${path}`,
      {
        parameters: itemQuery,
        requestBody: body(dtoRef(dto.update ?? dto.create)),
        responses: ok('The replaced record', recordRef),
      },
      ['NotFound', ...conflict],
    );
  }
  if (has('patch')) {
    item.patch = operation(
      'patch',
      `Patch one record of ${path}`,
      {
        parameters: itemQuery,
        requestBody: body(dtoRef(dto.patch), 'Only the fields to change'),
        responses: ok('The patched record', recordRef),
      },
      ['NotFound', ...conflict],
    );
  }
  if (has('remove'))
    item.delete = operation(
      'remove',
      `Remove one record of ${path}`,
      { parameters: itemQuery, responses: ok('The removed record', recordRef) },
      ['NotFound'],
    );

  const paths: Record<string, PathItemObject> = {};
  if (Object.keys(collection).length > 0) paths[`/${path}`] = collection;
  if (Object.keys(item).length > 1) paths[`/${path}/{id}`] = item;
  return paths;
}

interface PostParts {
  dtoRef(dto: Parameters<DtoSchemas['nameOf']>[0]): Reference;
  recordRef: Reference;
  operation(
    methods: string | string[],
    summary: string,
    parts: Partial<OperationObject>,
    errors: ErrorResponseName[],
  ): OperationObject;
  conflict: ErrorResponseName[];
  multi: boolean;
  /** `$include[]`, when the service has relations. */
  include: Reference[];
}

/**
 * `POST /<path>`: `create`, and each custom method when `X-Service-Method` names it. OpenAPI
 * has one operation per verb and path, so this one describes all of them: the header's values,
 * one body schema per method (`oneOf`), 201 for create and 200 for custom methods; the
 * `x-service-methods` extension maps each custom method to its body schema.
 */
function collectionPost(
  definition: ServiceDefinition,
  { dtoRef, recordRef, operation, conflict, multi, include }: PostParts,
): OperationObject | undefined {
  const { path, dto } = definition;
  const creates = definition.methods.includes('create');
  const custom = definition.methods.filter((method) => !(STANDARD_METHODS as readonly string[]).includes(method));
  if (!creates && custom.length === 0) return undefined;
  const createSchema: JsonSchema | undefined = creates
    ? multi
      ? { oneOf: [dtoRef(dto.create), { type: 'array', items: dtoRef(dto.create) }] }
      : dtoRef(dto.create)
    : undefined;
  const customSchemas = Object.fromEntries(
    custom.map((method) => {
      const methodDto = dto.methods?.[method];
      return [method, methodDto ? dtoRef(methodDto) : { type: 'object' }] as const;
    }),
  );
  const bodies = [...(createSchema ? [createSchema] : []), ...Object.values(customSchemas)];
  const responses: OperationObject['responses'] = {};
  if (creates)
    responses['201'] = {
      description: multi ? 'The created record (or records, for an array)' : 'The created record',
      content: jsonContent(multi ? { oneOf: [recordRef, { type: 'array', items: recordRef }] } : recordRef),
    };
  if (custom.length > 0)
    responses['200'] = {
      description: `The result of the custom method named by \`X-Service-Method\``,
      content: jsonContent({}),
    };
  const lines = [
    ...(creates
      ? [`Without \`X-Service-Method\`: create a record${multi ? ' (or several, from an array)' : ''}.`]
      : []),
    ...custom.map(
      (method) =>
        `\`X-Service-Method: ${method}\`: call the custom method \`${method}\` with its ` +
        `data${dto.methods?.[method] ? ` (\`${dto.methods[method].name}\`)` : ''}.`,
    ),
  ];
  const methodsHere = [...(creates ? ['create'] : []), ...custom];
  const op = operation(
    methodsHere,
    creates
      ? custom.length > 0
        ? `Create a record of ${path}, or call a custom method`
        : `Create a record of ${path}`
      : `Call a custom method of ${path}`,
    {
      description: lines.join('\n\n'),
      parameters:
        custom.length > 0 || include.length > 0
          ? [
              ...(custom.length > 0
                ? [
                    {
                      name: 'X-Service-Method',
                      in: 'header' as const,
                      required: !creates,
                      description: 'The custom method to call',
                      schema: { type: 'string', enum: custom },
                    },
                  ]
                : []),
              ...include,
            ]
          : undefined,
      requestBody: { required: true, content: jsonContent(bodies.length === 1 ? bodies[0] : { oneOf: bodies }) },
      responses,
    },
    creates ? conflict : [],
  );
  if (custom.length > 0)
    op['x-service-methods'] = Object.fromEntries(
      custom.map((method) => [method, { requestBody: customSchemas[method] }]),
    );
  return op;
}
