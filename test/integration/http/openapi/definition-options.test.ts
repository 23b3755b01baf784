import 'reflect-metadata';
import { dereference, validate, compileErrors } from '@readme/openapi-parser';
import { IsInt, IsOptional, IsString } from 'class-validator';
import request from 'supertest';
import { authenticate } from '../../../../src/application/authentication/authenticate.hook';
import { defineService, type ServiceDefinition } from '../../../../src/application/services/service-definition';
import { usersService } from '../../../../src/application/services/users/users.definition';
import { composeApplication, type ComposedApplication } from '../../../../src/composition-root';
import { loadConfig } from '../../../../src/composition/load-config';

class WidgetDto {
  @IsString()
  name!: string;
}

class WidgetPatchDto {
  @IsOptional()
  @IsString()
  name?: string;
}

class WidgetQueryDto {
  @IsOptional()
  @IsString()
  name?: string = undefined;
}

class PingDto {
  @IsInt()
  count!: number;
}

/** uuid ids, multi create/patch/remove, `$regex`, a public create beside a custom method that needs a token. */
const widgets = defineService({
  path: 'widgets',
  methods: ['find', 'get', 'create', 'patch', 'remove', 'ping'],
  customMethods: { ping: async (_store, data: PingDto) => ({ pong: data.count }) },
  dto: { create: WidgetDto, patch: WidgetPatchDto, query: WidgetQueryDto, methods: { ping: PingDto } },
  id: { field: 'id', type: 'uuid' },
  multi: ['create', 'patch', 'remove'],
  operators: ['$regex', '$options'],
  hooks: { always: () => ({ before: { ping: [authenticate('jwt')] } }) },
});

/** No create: POST is the custom method alone, so the header is required; find answers a plain array. */
const beacons = defineService({
  path: 'beacons',
  methods: ['find', 'signal'],
  customMethods: { signal: async () => ({ signalled: true }) },
  dto: { create: WidgetDto, patch: WidgetPatchDto, query: WidgetQueryDto },
  paginate: false,
});

function compose(services: readonly ServiceDefinition[]): Promise<ComposedApplication> {
  const config = loadConfig({
    NODE_ENV: 'test',
    STORE: 'memory',
    DATA_DIR: ':memory:',
    AUTH_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
  });
  return composeApplication(config, { services, authentication: { passwordHashCost: 10 } });
}

describe('the OpenAPI document follows what a definition states', () => {
  let composed: ComposedApplication;
  let document: any;
  let resolved: any;

  beforeAll(async () => {
    composed = await compose([usersService, widgets, beacons]);
    document = (await request(composed.http).get('/openapi.json').expect(200)).body;
    resolved = await dereference(structuredClone(document));
  });

  afterAll(() => composed?.close());

  it('stays a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(document));
    if (!result.valid) throw new Error(compileErrors(result));
  });

  it('documents multi routes, array bodies, uuid ids and extra operators', () => {
    const collection = resolved.paths['/widgets'];
    expect(collection.patch.operationId).toBe('widgets.patchMany');
    expect(collection.delete.operationId).toBe('widgets.removeMany');
    expect(collection.patch.responses['200'].content['application/json'].schema.type).toBe('array');
    expect(document.paths['/widgets'].post.requestBody.content['application/json'].schema.oneOf).toEqual([
      {
        oneOf: [
          { $ref: '#/components/schemas/WidgetDto' },
          { type: 'array', items: { $ref: '#/components/schemas/WidgetDto' } },
        ],
      },
      { $ref: '#/components/schemas/PingDto' },
    ]);
    expect(resolved.paths['/widgets/{id}'].parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      schema: { type: 'string', format: 'uuid' },
    });
    const names = collection.get.parameters.map((parameter: any) => parameter.name);
    expect(names).toEqual(expect.arrayContaining(['id', 'id[$in][]', 'name[$regex]', 'name[$options]']));
  });

  it('makes the token optional on a POST whose methods differ, and required where every method needs one', () => {
    expect(document.paths['/widgets'].post.security).toEqual([{ bearerAuth: [] }, {}]);
    expect(document.paths['/widgets'].get.security).toBeUndefined();
    expect(document.paths['/beacons'].post.security).toBeUndefined();
  });

  it('documents a custom-method-only POST with a required header and an unpaginated find', () => {
    const post = resolved.paths['/beacons'].post;
    expect(post.operationId).toBe('beacons.signal');
    expect(post.parameters).toEqual([
      expect.objectContaining({
        name: 'X-Service-Method',
        in: 'header',
        required: true,
        schema: { type: 'string', enum: ['signal'] },
      }),
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    ]);
    expect(Object.keys(post.responses)).not.toContain('201');
    expect(resolved.paths['/beacons'].get.responses['200'].content['application/json'].schema.type).toBe('array');
    expect(
      resolved.paths['/beacons'].get.parameters.find((parameter: any) => parameter.name === '$limit').schema.maximum,
    ).toBeUndefined();
    expect(document.paths['/beacons/{id}']).toBeUndefined();
  });

  it('agrees with the server on those routes', async () => {
    const agent = request(composed.http);
    const created = await agent
      .post('/widgets')
      .send([{ name: 'a' }, { name: 'b' }])
      .expect(201);
    expect(created.body).toHaveLength(2);
    expect(created.body[0].id).toMatch(/^[0-9a-f-]{36}$/);
    await agent.post('/widgets').set('x-service-method', 'ping').send({ count: 1 }).expect(401);
    const patched = await agent.patch('/widgets?name[$regex]=^a$').send({ name: 'c' }).expect(200);
    expect(patched.body).toEqual([{ id: created.body[0].id, name: 'c' }]);
    await agent.post('/beacons').set('x-service-method', 'signal').send({}).expect(200, { signalled: true });
    await agent.post('/beacons').send({ name: 'x' }).expect(405);
  });
});

it('refuses two DTO classes of the same name instead of documenting one of them', async () => {
  const Other = (() => {
    class WidgetDto {
      @IsInt()
      size!: number;
    }
    return WidgetDto;
  })();
  const clash = defineService({
    ...beacons,
    path: 'clash',
    methods: ['find', 'create'],
    dto: { create: Other, patch: WidgetPatchDto, query: WidgetQueryDto },
  });
  await expect(compose([usersService, widgets, clash])).rejects.toThrow("Two DTO classes are named 'WidgetDto'");
});
