import 'reflect-metadata';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { IsString } from 'class-validator';
import { MemoryService } from '../../../../src/adapters/memory';
import { createApp } from '../../../../src/application/app/application';
import type { HookContext } from '../../../../src/application/hooks/hook-context';
import { callLayers } from '../../../../src/application/lifecycle/call-layers';
import { SERVICE_STAGES } from '../../../../src/application/lifecycle/service-stages';
import { STAGE_NAMES } from '../../../../src/application/lifecycle/stage-label';
import { registerService } from '../../../../src/application/services/register-service';
import { defineService } from '../../../../src/application/services/service-definition';
import { partialOf } from '../../../../src/application/validation/derived-dto';
import type { ServiceMethods } from '../../../../src/ports/service.port';

class CreateStageNoteDto {
  @IsString()
  title!: string;
}

const seen: string[] = [];
const note = (name: string) =>
  Object.defineProperty((context: HookContext) => void seen.push(`${name} ${context.method}`), 'name', {
    value: name,
  });

const stageNotes = defineService({
  path: 'stage-notes',
  methods: ['find', 'get', 'create', 'update', 'patch', 'remove'],
  dto: {
    create: CreateStageNoteDto,
    patch: partialOf(CreateStageNoteDto, 'PatchStageNoteDto'),
    query: partialOf(CreateStageNoteDto, 'StageNotesQueryDto'),
  },
  hiddenFields: ['secret'],
  ownerField: 'userId',
  authentication: { strategies: ['jwt'], publicMethods: ['find'] },
  policy: (caller, { can }) => {
    if (caller.anonymous) return;
    can(['read', 'create', 'update', 'patch', 'remove'], { userId: caller.id });
  },
  hooks: {
    always: () => ({ before: { all: [note('always')] } }),
    storedHere: () => ({ before: { all: [note('storedHere')] } }),
  },
});

function appWith(storesLocally: boolean) {
  const app = createApp();
  const passwordHasher = { hash: async (p: string) => p, compare: async () => false, needsRehash: () => false };
  const store = new MemoryService({ id: '_id' }) as unknown as ServiceMethods;
  registerService(app, stageNotes, store, { passwordHasher, storesLocally });
  return app;
}

describe('the stages of a service call', () => {
  beforeEach(() => seen.splice(0));

  it('are one fixed list, in the documented order, each implemented by files that exist', () => {
    expect(SERVICE_STAGES.map((stage) => stage.name)).toEqual([...STAGE_NAMES]);
    const root = path.resolve(__dirname, '../../../..');
    for (const stage of SERVICE_STAGES) {
      expect(stage.why.length).toBeGreaterThan(10);
      for (const file of stage.files) expect(existsSync(path.join(root, file))).toBe(true);
    }
  });

  it("are a method's layers in that order, with what the definition put in each slot", () => {
    const layers = callLayers(appWith(true), 'stage-notes', 'update', true);
    expect(layers.map((layer) => layer.stage)).toEqual([
      'authenticate',
      'hide',
      'validate',
      'hooks',
      'view',
      'scope',
      'store',
    ]);
    expect(layers.find((layer) => layer.stage === 'validate')?.slot).toBe(
      'query StageNotesQueryDto; data CreateStageNoteDto',
    );
    expect(layers.find((layer) => layer.stage === 'store')?.slot).toBe('owner userId; before: storedHere');
  });

  it('leave out the authenticate stage for public methods', () => {
    const app = appWith(true);
    expect(callLayers(app, 'stage-notes', 'find', true).map((layer) => layer.stage)).not.toContain('authenticate');
    expect(callLayers(app, 'stage-notes', 'get', true).map((layer) => layer.stage)).toContain('authenticate');
  });

  it('skip the stages of calls from transports for internal calls, decided by the app once', async () => {
    const app = appWith(true);
    expect(callLayers(app, 'stage-notes', 'get', false).map((layer) => layer.stage)).toEqual([
      'authenticate',
      'hide',
      'validate',
      'hooks',
      'store',
    ]);
    // An internal call sees every record: no policy joins its query, and the owner is the one it names.
    const service = app.service('stage-notes');
    const created = await service.create({ title: 'a', userId: 'u1' });
    expect(created).toMatchObject({ title: 'a', userId: 'u1' });
    expect(await service.get(created._id)).toMatchObject({ title: 'a' });
    expect(seen).toEqual(['always create', 'storedHere create', 'always get', 'storedHere get']);
  });

  it("skip the storing server's stages on a binding to another server, by the list", () => {
    const stages = callLayers(appWith(false), 'stage-notes', 'update', true).map((layer) => layer.stage);
    expect(stages).toEqual(['authenticate', 'hide', 'validate', 'hooks']);
    for (const stage of SERVICE_STAGES.filter((candidate) => candidate.runsOn === 'storing server'))
      expect(stages).not.toContain(stage.name);
  });

  it('take a hook map keyed by a method the store has but transports may not call', async () => {
    const internalOnly = defineService({
      path: 'stage-internal',
      methods: ['find'],
      dto: stageNotes.dto,
      hooks: {
        always: () => ({
          create: [(_context: HookContext, next: () => Promise<void>) => (seen.push('create'), next())],
        }),
      },
    });
    const app = createApp();
    const passwordHasher = { hash: async (p: string) => p, compare: async () => false, needsRehash: () => false };
    const store = new MemoryService({ id: '_id' }) as unknown as ServiceMethods;
    registerService(app, internalOnly, store, { passwordHasher, storesLocally: true });
    await app.service('stage-internal').create({ title: 'a' });
    expect(seen).toEqual(['create']);
    // The listed-only stages (validate here) do not reach it; the hooks stage does.
    expect(callLayers(app, 'stage-internal', 'create', false).map((layer) => layer.stage)).toEqual(['hooks']);
  });

  it('apply the policy to a call from a transport: a 401 without a credential, before any hook runs', async () => {
    const app = appWith(true);
    await expect(app.service('stage-notes').get('x', { provider: 'rest' })).rejects.toMatchObject({
      name: 'NotAuthenticated',
    });
    expect(seen).toEqual([]);
  });
});
