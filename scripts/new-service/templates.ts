import { FIELD_TYPES, type FieldSpec } from './field-spec';

/** The names one service's files use: `todo-items` -> `todoItems`, `TodoItems`. */
export interface ServiceNames {
  path: string;
  camel: string;
  pascal: string;
}

export function namesOf(path: string): ServiceNames {
  const camel = path.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
  return { path, camel, pascal: camel[0].toUpperCase() + camel.slice(1) };
}

function decoratorNames(fields: readonly FieldSpec[]): string[] {
  const names = new Set(['IsOptional', 'IsString']);
  for (const field of fields)
    for (const validator of FIELD_TYPES[field.type].validators) names.add(validator.slice(0, validator.indexOf('(')));
  return [...names].sort();
}

function property(field: FieldSpec): string {
  const lines = [...(field.optional ? ['IsOptional()'] : []), ...FIELD_TYPES[field.type].validators].map(
    (validator) => `  @${validator}`,
  );
  lines.push(`  ${field.name}${field.optional ? '?' : '!'}: ${FIELD_TYPES[field.type].ts};`);
  return lines.join('\n');
}

/** The create DTO holds each field once; patch and query are derived from it. */
export function dtoFile(names: ServiceNames, fields: readonly FieldSpec[]): string {
  return (
    `import { ${decoratorNames(fields).join(', ')} } from 'class-validator';
import { partialOf, queryOf } from '../../validation/derived-dto';

/** Data of a new record (and of a replacement with \`PUT\`); the owner is set by the server. */
export class Create${names.pascal}Dto {
${fields.map(property).join('\n\n')}
}

/** Data of \`PATCH\`: the same fields, each optional. */
export const Patch${names.pascal}Dto = partialOf(Create${names.pascal}Dto, 'Patch${names.pascal}Dto');

/** Fields a client may filter and sort by (each optional); URL strings become these types. */
export class ${names.pascal}QueryDto extends queryOf(Create${names.pascal}Dto, ` +
    `[${fields.map((field) => `'${field.name}'`).join(', ')}]) {
  @IsOptional()
  @IsString()
  userId?: string;
}
`
  );
}

export function hooksFile(names: ServiceNames): string {
  return `import type { HookMap } from '../../hooks/hook-types';

/**
 * The service's own Feathers-style hooks (the \`hooks\` stage, wherever the service is bound), after
 * authentication and the DTOs' validation: none yet. Add some per method, e.g.
 * \`{ before: { create: [checkTitle] } }\`; \`npm run describe -- ${names.path}\` shows where they run.
 */
export function ${names.camel}Hooks(): HookMap {
  return {};
}

/**
 * Hooks of the server that stores the records (the \`store\` stage, after the policy), for stamps
 * the server owns: none yet. The owner (\`userId\`) is the definition's \`ownerField\`, set from the
 * caller by the stage itself.
 */
export function stored${names.pascal}Hooks(): HookMap {
  return {};
}
`;
}

export function definitionFile(names: ServiceNames, fields: readonly FieldSpec[]): string {
  return (
    `import { userChannel } from '../realtime-policy';
import { defineService } from '../service-definition';
import { Create${names.pascal}Dto, Patch${names.pascal}Dto, ${names.pascal}QueryDto } from './${names.path}.dto';
import { ${names.camel}Hooks, stored${names.pascal}Hooks } from './${names.path}.hooks';

export const ${names.camel}Service = defineService({
  path: '${names.path}',
  description: 'Each signed-in user keeps their own ${names.path}.',
  methods: ['find', 'get', 'create', 'update', 'patch', 'remove'],
  dto: { create: Create${names.pascal}Dto, patch: Patch${names.pascal}Dto, query: ${names.pascal}QueryDto },
  paginate: { default: 10, max: 50 },
  indexes: [{ fields: { userId: 1 } }],
  ownerField: 'userId',
  // Who may do what (docs/policies-and-relations.md, "Who may see and do what"): each signed-in
  // user reads, changes and removes their own records only; others' are a 404. Widen with more rules, e.g.
  // \`can('read', ['_id', '${fields[0].name}'])\` to show everyone that field, or an admin's
  // \`if (caller.roles.includes('admin')) can('read')\`.
  policy: (caller, { can }) => {
    if (caller.anonymous) return;
    can('create', [${fields.map((field) => `'${field.name}'`).join(', ')}]);
    can(['read', 'update', 'patch', 'remove'], { userId: caller.id });
  },
  // Records of other services that answers and events carry (docs/policies-and-relations.md,
  // "Related records"), e.g. the owner's name, resolved in one users call per page as the caller;
  // clients choose with \`$include\`:
  // relations: { user: { service: 'users', field: 'userId', select: ['_id', 'name'] } },
  // Every call needs a signed-in caller.
  authentication: { strategies: ['jwt'] },
  hooks: { always: ${names.camel}Hooks, storedHere: stored${names.pascal}Hooks },
  // Only the owner's own real-time connections hear about a record.
  publish: (app) => (record: { userId?: unknown }) => (record.userId === undefined ? null : ` +
    `app.channel(userChannel(record.userId))),
});
`
  );
}

/** A value of the field's type, and one of another type (which the DTO must refuse). */
const SAMPLES = {
  string: { good: "'an example'", bad: '42' },
  number: { good: '1.5', bad: "'not a number'" },
  integer: { good: '2', bad: '2.5' },
  boolean: { good: 'true', bad: "'yes'" },
} as const;

export function testFile(names: ServiceNames, fields: readonly FieldSpec[]): string {
  const record = fields.map((field) => `${field.name}: ${SAMPLES[field.type].good}`).join(', ');
  const first = fields[0];
  return (
    `import 'reflect-metadata';
import request from 'supertest';
import { composeApplication, type ComposedApplication } from '../../../src/composition-root';
import { loadConfig } from '../../../src/composition/load-config';

const PASSWORD = 'correct horse battery';
const RECORD = { ${record} };

describe.each(['memory', 'mongo'])('${names.path} on the %s store', (store) => {
  let composed: ComposedApplication;
  let agent: ReturnType<typeof request>;
  const users: Record<'ann' | 'bob', { id: string; token: string }> = {} as never;

  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', STORE: store, DATA_DIR: ':memory:', AUTH_SECRET: ` +
    `'a-test-secret-that-is-long-enough-0123456789', PASSWORD_HASH_COST: '10' });
    composed = await composeApplication(config);
    agent = request(composed.http);
    for (const name of ['ann', 'bob'] as const) {
      const email = \`\${name}@example.com\`;
      const user = await agent.post('/users').send({ email, password: PASSWORD }).expect(201);
      const login = await agent.post('/authentication').send({ strategy: 'local', email, password: PASSWORD ` +
    `}).expect(201);
      users[name] = { id: user.body._id, token: login.body.accessToken };
    }
  });
  afterAll(() => composed.close());

  const as = (name: 'ann' | 'bob') => ({ authorization: \`Bearer \${users[name].token}\` });

  it('creates a record for a signed-in user, owned by that user', async () => {
    const created = await agent.post('/${names.path}').set(as('ann')).send(RECORD);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...RECORD, userId: users.ann.id });
  });

  it('refuses calls without a token with 401', async () => {
    expect((await agent.get('/${names.path}')).status).toBe(401);
    expect((await agent.post('/${names.path}').send(RECORD)).status).toBe(401);
  });

  it('refuses a value of the wrong type with 400 naming the field', async () => {
    const response = await agent.post('/${names.path}').set(as('ann')).send({ ` +
    `...RECORD, ${first.name}: ${SAMPLES[first.type].bad} });
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveProperty('${first.name}');
  });

  it('lets each user read, change and remove only their own records', async () => {
    const created = (await agent.post('/${names.path}').set(as('ann')).send(RECORD).expect(201)).body;
    const url = \`/${names.path}/\${created._id}\`;
    expect((await agent.get(url).set(as('bob'))).status).toBe(404);
    expect((await agent.patch(url).set(as('bob')).send({ ${first.name}: ${SAMPLES[first.type].good} ` +
    `})).status).toBe(404);
    expect((await agent.delete(url).set(as('bob'))).status).toBe(404);
    expect((await agent.get('/${names.path}').set(as('bob'))).body).toMatchObject({ total: 0, data: [] });
    expect((await agent.get(url).set(as('ann'))).body).toMatchObject(RECORD);
    expect((await agent.patch(url).set(as('ann')).send({ ${first.name}: ${SAMPLES[first.type].good} ` +
    `})).status).toBe(200);
    expect((await agent.delete(url).set(as('ann'))).status).toBe(200);
    expect((await agent.get(url).set(as('ann'))).status).toBe(404);
  });
});
`
  );
}
