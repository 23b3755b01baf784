import 'reflect-metadata';
import { MemoryService } from '../../../src/adapters/memory';
import { sessionsService } from '../../../src/application/authentication/sessions/sessions.definition';
import { createStore } from '../../../src/composition/create-store';

describe('createStore on the memory store', () => {
  it("keeps a definition's TTL and unique indexes as the memory store's expiry and unique fields", () => {
    const definition = {
      ...sessionsService,
      indexes: [...(sessionsService.indexes ?? []), { fields: { token: 1 as const }, unique: true }],
    };
    const store = createStore(definition, 'memory', undefined) as unknown as MemoryService;
    expect(store).toBeInstanceOf(MemoryService);
    expect(store.options).toMatchObject({ expireAfter: [{ field: 'expiresAt', seconds: 0 }], unique: [['token']] });
  });
});
