import { FetchClient, rest } from '../../../src/adapters/rest-client';
import { createApp } from '../../../src/application/app/application';
import { buildBehaviourApp } from './support/behaviour-app';
import { startServer, type RunningServer } from './support/test-server';

/** Adds a tenant to every query string, the way an application customises `getQuery`. */
class TenantClient extends FetchClient {
  override getQuery(query: Record<string, unknown>): string {
    return super.getQuery({ ...query, tenant: 't1' });
  }
}

describe('fetch client class', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(buildBehaviourApp().app);
  });
  afterAll(() => server.close());

  it.each([
    ['second', () => rest(server.url).fetch(fetch, TenantClient)],
    ['third', () => rest(server.url).fetch(fetch, { headers: { 'X-Default': 'd' } }, TenantClient)],
  ])('a subclass passed as %s argument overrides getQuery', async (_position, client) => {
    const app = createApp().configure(client());
    const service = app.service('echo');
    expect(service).toBeInstanceOf(TenantClient);
    expect((await service.find({ query: { a: '1' } })).query).toEqual({ a: '1', tenant: 't1' });
    expect((await service.get(5)).query).toEqual({ tenant: 't1' });
  });

  it('getQuery returns an empty string for an empty query', () => {
    const service = rest(server.url).fetch(fetch).service('echo');
    expect(service.getQuery({})).toBe('');
    expect(service.getQuery({ $limit: 1 })).toBe('?%24limit=1');
  });
});
