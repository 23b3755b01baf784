import 'reflect-metadata';
import { IsString } from 'class-validator';
import { createApp } from '../../../../src/application/app/application';
import type { HookContext } from '../../../../src/application/hooks/hook-context';
import { registerService } from '../../../../src/application/services/register-service';
import { defineService } from '../../../../src/application/services/service-definition';
import { partialOf } from '../../../../src/application/validation/derived-dto';
import { MemoryService } from '../../../../src/adapters/memory';
import type { ServiceMethods } from '../../../../src/ports/service.port';

class CreateNoteDto {
  @IsString()
  title!: string;
}

const stamp = (field: string) => (context: HookContext) => {
  context.data = { ...context.data, [field]: true };
};

const notes = defineService({
  path: 'notes',
  methods: ['find', 'get', 'create', 'update', 'patch', 'remove'],
  dto: {
    create: CreateNoteDto,
    patch: partialOf(CreateNoteDto, 'PatchNoteDto'),
    query: partialOf(CreateNoteDto, 'NotesQueryDto'),
  },
  ownerField: 'userId',
  hooks: {
    always: () => ({ before: { create: [stamp('always')] } }),
    storedHere: () => ({ before: { create: [stamp('storedHere')] } }),
  },
});

function givenNotes(storesLocally: boolean) {
  const app = createApp();
  const passwordHasher = {
    hash: async (password: string) => password,
    compare: async () => false,
    needsRehash: () => false,
  };
  registerService(app, notes, new MemoryService({ id: '_id' }) as unknown as ServiceMethods, {
    passwordHasher,
    storesLocally,
  });
  return app.service('notes');
}

describe('registerService', () => {
  it('runs the always and storedHere hooks where the store is local', async () => {
    await expect(givenNotes(true).create({ title: 'a' })).resolves.toMatchObject({
      title: 'a',
      always: true,
      storedHere: true,
    });
  });

  it('runs only the always hooks where the store is another server (which runs its own)', async () => {
    const created = await givenNotes(false).create({ title: 'a' });
    expect(created).toMatchObject({ title: 'a', always: true });
    expect(created).not.toHaveProperty('storedHere');
  });

  it("keeps the owner field an internal caller names and drops a client's, without a DTO field for it", async () => {
    const service = givenNotes(true);
    await expect(service.create({ title: 'a', userId: 'u1' })).resolves.toMatchObject({ userId: 'u1' });
    await expect(service.create({ title: 'a', userId: 'u1' }, { provider: 'rest' })).resolves.not.toHaveProperty(
      'userId',
    );
    await expect(service.create({ title: 'a', owner: 'u1' })).rejects.toMatchObject({
      name: 'BadRequest',
      errors: { owner: expect.any(Array) },
    });
  });
});
