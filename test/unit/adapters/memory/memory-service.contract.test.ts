import { MemoryService } from '../../../../src/adapters/memory';
import { createApp } from '../../../../src/application/app/application';
import { runServiceContract } from '../../../contract/service-contract.suite';

runServiceContract({
  name: 'MemoryService',
  async create(options) {
    const app = createApp();
    app.use('people', new MemoryService({ ...options }));
    await app.setup();
    return { service: app.service('people'), close: async () => void (await app.teardown()) };
  },
});
