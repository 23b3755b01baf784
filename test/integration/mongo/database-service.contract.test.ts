import { createApp } from '../../../src/application/app/application';
import { DatabaseService } from '../../../src/adapters/mongo';
import { runServiceContract } from '../../contract/service-contract.suite';
import { startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';

let server: MongoTestServer;

beforeAll(async () => {
  server = await startMongoTestServer();
});

afterAll(async () => {
  await server?.close();
});

runServiceContract({
  name: 'DatabaseService',
  async create(options) {
    // A new collection per service: every create starts empty.
    const name = server.uniqueName('people');
    const Model = Promise.resolve(server.db().collection(name));
    const app = createApp();
    app.use('people', new DatabaseService({ ...options, Model }));
    return {
      service: app.service('people'),
      close: async () => {
        await app.teardown();
        await server
          .db()
          .collection(name)
          .drop()
          .catch(() => undefined);
      },
    };
  },
});
