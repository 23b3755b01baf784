import { dereference, validate, compileErrors } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import { captureSecurityHeaders, plainHttpSecurityHeaders } from '../../../../src/adapters/http/security-headers';
import { composeApplication, type ComposedApplication } from '../../../../src/composition-root';
import { loadConfig } from '../../../../src/composition/load-config';
import { SERVICES } from '../../../../src/application/services/service-list';
import { STANDARD_METHODS } from '../../../../src/ports/service.port';

const TEST_SECRET = 'a-test-secret-that-is-long-enough-0123456789';

function compose(env: Record<string, string> = {}): Promise<ComposedApplication> {
  const config = loadConfig({
    NODE_ENV: 'test',
    STORE: 'memory',
    DATA_DIR: ':memory:',
    AUTH_SECRET: TEST_SECRET,
    ...env,
  });
  return composeApplication(config, { authentication: { passwordHashCost: 10 } });
}

/** Where each standard method lives in the HTTP mapping: [path template suffix, verb]. */
const ROUTE_OF: Record<string, [string, string]> = {
  find: ['', 'get'],
  get: ['/{id}', 'get'],
  create: ['', 'post'],
  update: ['/{id}', 'put'],
  patch: ['/{id}', 'patch'],
  remove: ['/{id}', 'delete'],
};

describe('GET /openapi.json', () => {
  let composed: ComposedApplication;
  let document: any;
  let resolved: any;

  beforeAll(async () => {
    composed = await compose();
    const response = await request(composed.http).get('/openapi.json').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    document = response.body;
    resolved = await dereference(structuredClone(document));
  });

  afterAll(() => composed?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document));
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.warnings).toEqual([]);
  });

  it('has every route of every definition, and no route the definition does not allow', () => {
    for (const definition of SERVICES) {
      for (const method of STANDARD_METHODS) {
        const [suffix, verb] = ROUTE_OF[method];
        const operation = document.paths[`/${definition.path}${suffix}`]?.[verb];
        if (definition.methods.includes(method)) expect(operation?.operationId).toBe(`${definition.path}.${method}`);
        else expect(operation).toBeUndefined();
      }
      // No definition allows multi: the collection has no PATCH or DELETE.
      expect(document.paths[`/${definition.path}`].patch).toBeUndefined();
      expect(document.paths[`/${definition.path}`].delete).toBeUndefined();
    }
  });

  it('documents each custom method as POST with X-Service-Method and its DTO', () => {
    const post = resolved.paths['/messages'].post;
    const header = post.parameters.find((parameter: any) => parameter.in === 'header');
    expect(header).toMatchObject({ name: 'X-Service-Method', required: false, schema: { enum: ['markRead'] } });
    expect(document.paths['/messages'].post['x-service-methods']).toEqual({
      markRead: { requestBody: { $ref: '#/components/schemas/MarkReadDto' } },
    });
    expect(document.components.schemas.MarkReadDto).toMatchObject({
      type: 'object',
      required: ['id'],
      additionalProperties: false,
    });
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '201']));
  });

  it('documents the query syntax per field and operator in qs bracket syntax', () => {
    const parameters = new Map<string, any>(
      resolved.paths['/messages'].get.parameters.map((parameter: any) => [parameter.name, parameter]),
    );
    for (const field of ['_id', 'text', 'userId', 'createdAt', 'read', 'likes']) {
      expect(parameters.get(field)).toMatchObject({ in: 'query' });
      for (const operator of ['$lt', '$lte', '$gt', '$gte', '$ne', '$eq'])
        expect(parameters.has(`${field}[${operator}]`)).toBe(true);
      for (const operator of ['$in', '$nin'])
        expect(parameters.get(`${field}[${operator}][]`)).toMatchObject({
          style: 'form',
          explode: true,
          schema: { type: 'array' },
        });
    }
    expect(parameters.get('likes[$gte]').schema).toEqual({ type: 'integer' });
    expect(parameters.get('read').schema).toEqual({ type: 'boolean' });
    expect(parameters.get('$limit').schema).toEqual({ type: 'integer', minimum: 0, maximum: 50 });
    expect(parameters.get('$skip').schema).toEqual({ type: 'integer', minimum: 0 });
    expect(parameters.get('$sort')).toMatchObject({
      style: 'deepObject',
      explode: true,
      schema: { properties: { createdAt: { enum: [1, -1] } } },
    });
    expect(parameters.get('$select[]').schema.items.enum).toEqual(expect.arrayContaining(['_id', 'text', 'createdAt']));
    // A hidden field is neither returned nor queryable.
    const users = new Set(resolved.paths['/users'].get.parameters.map((parameter: any) => parameter.name));
    expect([...users].some((name) => String(name).startsWith('password'))).toBe(false);
    expect(resolved.components.schemas.UsersRecord.properties.password).toBeUndefined();
  });

  it('documents bearer authentication as the hooks decide it: users create is public, the rest needs a token', () => {
    expect(document.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    const bearer = [{ bearerAuth: [] }];
    expect(document.paths['/users'].post.security).toBeUndefined();
    expect(document.paths['/users'].get.security).toEqual(bearer);
    expect(document.paths['/users/{id}'].patch.security).toEqual(bearer);
    for (const item of [document.paths['/messages'], document.paths['/messages/{id}']]) {
      for (const operation of Object.values<any>(item).filter((value) => value.operationId))
        expect(operation.security).toEqual(bearer);
    }
  });

  it(
    'agrees with the server: operations marked as needing a token answer ' +
      '401 without one, in the documented error shape',
    async () => {
      const errorSchema = compileSchema(resolved.components.schemas.Error);
      const agent = request(composed.http);
      const id = '0123456789abcdef01234567';
      let checked = 0;
      for (const [template, item] of Object.entries<any>(document.paths)) {
        if (template.startsWith('/authentication')) continue;
        for (const [verb, operation] of Object.entries<any>(item)) {
          if (!operation.operationId || !operation.security) continue;
          const response = await (agent as any)[verb](template.replace('{id}', id)).send({});
          expect([operation.operationId, response.status]).toEqual([operation.operationId, 401]);
          expect(errorSchema(response.body)).toBe(true);
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(10);
    },
  );

  it('describes what the server answers: records, the page shape, custom methods and logins', async () => {
    const agent = request(composed.http);
    const schemas = resolved.components.schemas;
    const signUp = await agent
      .post('/users')
      .send({ email: 'ada@example.com', password: 'correct horse', name: 'Ada' })
      .expect(201);
    expect(compileSchema(schemas.UsersRecord)(signUp.body)).toBe(true);
    const login = await agent
      .post('/authentication')
      .send({ strategy: 'local', email: 'ada@example.com', password: 'correct horse' })
      .expect(201);
    expect(compileSchema(schemas.AuthenticationResult)(login.body)).toBe(true);
    const auth = { authorization: `Bearer ${login.body.accessToken}` };
    const created = await agent.post('/messages').set(auth).send({ text: 'hello' }).expect(201);
    expect(compileSchema(schemas.MessagesRecord)(created.body)).toBe(true);
    // A record schema names every field an answer may carry (who liked, whether I did), and no other.
    expect(Object.keys(schemas.MessagesRecord.properties)).toEqual(expect.arrayContaining(['likedBy', 'liked']));
    expect(new Ajv2020({ strict: false }).compile(schemas.MessagesRecord)({ ...created.body, undeclared: 1 })).toBe(
      false,
    );
    expect(Object.keys(schemas.UsersRecord.properties).sort()).toEqual(['_id', 'disabled', 'email', 'name', 'roles']);
    const page = await agent
      .get(
        '/messages?likes[$gte]=0&$sort[createdAt]=-1&$select[]=text&userId[$in][]=x&userId[$in][]=' +
          created.body.userId,
      )
      .set(auth)
      .expect(200);
    expect(compileSchema(schemas.MessagesPage)(page.body)).toBe(true);
    expect(page.body.data).toEqual([{ _id: created.body._id, text: 'hello' }]);
    const marked = await agent
      .post('/messages')
      .set(auth)
      .set('x-service-method', 'markRead')
      .send({ id: created.body._id })
      .expect(200);
    expect(marked.body.read).toBe(true);
    const refused = await agent.get('/messages?text[$where]=1').set(auth).expect(400);
    expect(compileSchema(schemas.Error)(refused.body)).toBe(true);
  });

  it(
    "is served with helmet's full header set (over plain HTTP without " +
      'upgrade-insecure-requests) and built once (the same bytes on every request)',
    async () => {
      const first = await request(composed.http).get('/openapi.json');
      const second = await request(composed.http).get('/openapi.json');
      expect(second.text).toBe(first.text);
      for (const [name, value] of Object.entries(plainHttpSecurityHeaders(captureSecurityHeaders())))
        expect([name, first.headers[name]]).toEqual([name, value]);
    },
  );
});

describe('DOCS=false', () => {
  it('serves neither the document nor the page', async () => {
    const composed = await compose({ DOCS: 'false' });
    try {
      for (const path of ['/openapi.json', '/docs', '/docs/swagger-ui-bundle.js', '/docs/init.js']) {
        const response = await request(composed.http).get(path);
        expect([path, response.status, response.body.name]).toEqual([path, 404, 'NotFound']);
      }
    } finally {
      await composed.close();
    }
  });
});

function compileSchema(schema: object): (value: unknown) => boolean {
  // Formats (email, uuid) are left to the DTOs' own checks; the shapes are what is compared here.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const check = ajv.compile(schema);
  return (value) => {
    const valid = check(value);
    if (!valid) console.error(JSON.stringify(check.errors));
    return valid;
  };
}
