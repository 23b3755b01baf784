import { USER_IDENTITY } from '../../../application/services/users/user-identity';
import type { Application } from '../../../application/app/application';
import { normalizePath } from '../../../application/app/normalize-path';
import type { ServiceDefinition } from '../../../application/services/service-definition';
import { copyWith } from '../../../domain/plain-record';
import { AUTHENTICATION_TAG, authenticationPaths } from './authentication-paths';
import { DtoSchemas, schemaReferencesIn } from './dto-schemas';
import { refTo, type OpenApiDocument } from './openapi-types';
import { componentBase, servicePaths } from './service-paths';
import { sharedComponents } from './shared-components';
import { tokenRequirements } from './token-requirements';

export interface OpenApiDocumentInput {
  /**
   * The composed application: which methods its hooks guard with `authenticate`, whether `authentication` is served.
   */
  app: Application;
  /** The services to describe (those the application registered from its definitions). */
  definitions: readonly ServiceDefinition[];
  title?: string;
  version?: string;
}

const OVERVIEW = [
  'Every service answers the same routes: `GET /<service>` (find), `GET /<service>/{id}` (get), `POST /<service>` ' +
    '(create, or a custom method named by the `X-Service-Method` header), `PUT /<service>/{id}` (update), `PATCH ' +
    '/<service>/{id}` (patch), `DELETE /<service>/{id}` (remove).',
  'Queries use qs bracket syntax: `field=value`, `field[$ne]=value`, `field[$in][]=a&field[$in][]=b`, ' +
    '`$sort[field]=-1`, `$limit=10`, `$skip=20`, `$select[]=field`, `$or[0][field]=a&$or[1][field]=b`. Unknown ' +
    'fields or operators are a 400.',
  'Errors are JSON: `{ name, message, code, className, data?, errors? }`. Log in with `POST /authentication` and ' +
    'send the `accessToken` as `Authorization: Bearer <token>`.',
].join('\n\n');

/**
 * The OpenAPI 3.1 document of an application, built from its service definitions: every route
 * of the HTTP mapping, the query parameters per field and operator, the DTOs' JSON schemas
 * (class-validator metadata), bearer authentication, the page and error shapes, and the login
 * route. Built once, at start-up.
 */
export function buildOpenApiDocument({
  app,
  definitions,
  title = 'API',
  version = '1.0.0',
}: OpenApiDocumentInput): OpenApiDocument {
  const schemas = new DtoSchemas();
  const shared = sharedComponents();
  const components: OpenApiDocument['components'] = {
    schemas: { ...shared.schemas },
    parameters: {},
    responses: shared.responses,
    securitySchemes: shared.securitySchemes,
  };
  const needsToken = tokenRequirements(app);
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title, version, description: OVERVIEW },
    tags: [],
    paths: {},
    components,
  };

  const registered = new Set(app.entries().map((entry) => entry.path));
  if (registered.has('authentication')) {
    const users = definitions.find((definition) => normalizePath(definition.path) === USER_IDENTITY.path);
    const user = users ? refTo('schemas', `${componentBase(USER_IDENTITY.path)}Record`) : { type: 'object' };
    document.tags.push({ name: AUTHENTICATION_TAG, description: 'Log in and check tokens' });
    Object.assign(document.paths, authenticationPaths(user, components));
  }
  const definitionAt = (path: string) =>
    definitions.find((definition) => normalizePath(definition.path) === normalizePath(path));
  for (const definition of definitions) {
    const path = normalizePath(definition.path);
    const normalized = copyWith(definition, { path });
    document.tags.push({ name: path, description: definition.description });
    Object.assign(
      document.paths,
      servicePaths({
        definition: normalized,
        schemas,
        needsToken: (method) => needsToken(path, method),
        components,
        definitionAt,
      }),
    );
  }
  addReferencedDtoSchemas(document, schemas);
  return document;
}

/** Adds the schema of every DTO the document refers to, and of the DTOs those refer to (nested ones). */
function addReferencedDtoSchemas(document: OpenApiDocument, schemas: DtoSchemas): void {
  const pending = [...schemaReferencesIn(document)];
  for (let steps = 0; pending.length > 0 && steps < 10_000; steps += 1) {
    const name = pending.pop()!;
    if (document.components.schemas[name] !== undefined) continue;
    const schema = schemas.schemaOf(name);
    if (schema === undefined) throw new Error(`The OpenAPI document refers to '${name}', which has no schema`);
    document.components.schemas[name] = schema;
    pending.push(...schemaReferencesIn(schema));
  }
}
