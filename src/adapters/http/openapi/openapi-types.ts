/*
 * The parts of an OpenAPI 3.1 document this builder writes. Schemas are JSON Schema 2020-12
 * objects, kept open (`Record<string, unknown>`) because class-validator-jsonschema writes them.
 */
export type JsonSchema = Record<string, unknown>;

// A type alias (not an interface) so that a reference is also a schema.
export type Reference = { $ref: string };

export interface ParameterObject {
  name: string;
  in: 'query' | 'header' | 'path';
  description?: string;
  required?: boolean;
  style?: 'form' | 'deepObject' | 'simple';
  explode?: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface MediaTypeObject {
  schema: JsonSchema;
}

export interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content: Record<string, MediaTypeObject>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { description?: string; schema: JsonSchema }>;
  content?: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: (ParameterObject | Reference)[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | Reference>;
  security?: Record<string, string[]>[];
  [extension: `x-${string}`]: unknown;
}

export type PathItemObject = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', OperationObject>> & {
  parameters?: (ParameterObject | Reference)[];
};

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  tags: { name: string; description?: string }[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, ParameterObject>;
    responses: Record<string, ResponseObject>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}

/** A `$ref` to a component of `kind`. */
export function refTo(kind: 'schemas' | 'parameters' | 'responses', name: string): Reference {
  return { $ref: `#/components/${kind}/${name}` };
}

/** JSON content of `schema`. */
export function jsonContent(schema: JsonSchema): Record<string, MediaTypeObject> {
  return { 'application/json': { schema } };
}

/**
 * Adds `value` under a component name derived from `wanted` (only `A-Z a-z 0-9 . _ -` are allowed
 * there); a name already taken gets a numeric suffix, so two parameters never share one.
 */
export function addComponent<T>(components: Record<string, T>, wanted: string, value: T): string {
  const base = wanted.replace(/[^A-Za-z0-9._-]/g, '_');
  let name = base;
  for (let suffix = 2; name in components; suffix += 1) name = `${base}_${suffix}`;
  components[name] = value;
  return name;
}
