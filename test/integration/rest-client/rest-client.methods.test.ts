import { createApp, type Application } from '../../../src/application/app/application';
import { itIf } from '../../helpers/skip-with-reason';
import { buildBehaviourApp } from './support/behaviour-app';
import { CLIENT_LIBRARIES } from './support/client-libraries';
import { startServer, type RunningServer } from './support/test-server';

/** Numbers become strings on the way through a URL. */
const asStrings = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_key, item) => (typeof item === 'number' ? String(item) : item)));

describe.each(CLIENT_LIBRARIES)('REST client over $name', (library) => {
  let server: RunningServer;
  let app: Application;

  beforeAll(async () => {
    server = await startServer(buildBehaviourApp().app);
  });
  afterAll(() => server.close());

  beforeEach(() => {
    app = createApp().configure(
      library.client(server.url, { headers: { 'X-Default': 'default', Authorization: 'Bearer default' } }),
    );
  });

  describe('app.configure', () => {
    it('sets app.rest to the connection and makes app.service(name) remote', async () => {
      expect(app.rest).toBe(library.connection);
      const created = await app.service('messages').create({ text: 'hi' });
      expect(await app.service('messages').get(created.id)).toEqual(created);
    });

    it('fails on a second library-selecting client', () => {
      expect(() => app.configure(library.client(server.url))).toThrow(/already configured/);
    });

    it('resolves service paths against the base URL', async () => {
      const direct = createApp().use('api/v1/things', library.client(server.url).service('api/v1/things'));
      const based = createApp().use('things', library.client(`${server.url}/api/v1/`).service('things'));
      const created = await direct.service('api/v1/things').create({ n: 1 });
      expect(await based.service('things').get(created.id)).toEqual(created);
    });
  });

  describe('standard methods', () => {
    it('map onto HTTP verbs with ids and data', async () => {
      const echo = app.service('echo');
      expect(await echo.find()).toMatchObject({ method: 'find', query: {} });
      expect(await echo.get(7)).toMatchObject({ method: 'get', id: '7' });
      expect(await echo.create({ a: 1 })).toMatchObject({ method: 'create', data: { a: 1 } });
      expect(await echo.update(1, { a: 2 })).toMatchObject({ method: 'update', id: '1', data: { a: 2 } });
      expect(await echo.patch(null, { a: 3 }, { query: { q: 'x' } })).toMatchObject({
        method: 'patch',
        id: null,
        data: { a: 3 },
        query: { q: 'x' },
      });
      expect(await echo.remove(0)).toMatchObject({ method: 'remove', id: '0' });
    });

    it('percent-encode ids so any id round-trips', async () => {
      for (const id of ['a b', 'a/b', '50%', 'x?y=1#z', 'ü€', '...', '%2E%2E', '\'"<>\\']) {
        expect(await app.service('echo').get(id)).toMatchObject({ id });
      }
      // URL parsers drop dot segments, so these can never reach the server as ids.
      await expect(app.service('echo').get('..')).rejects.toMatchObject({ name: 'BadRequest' });
    });

    it('encode params.query as the server parses it (nested $or, $in, $sort, $select)', async () => {
      const query = {
        $or: [
          { name: 'Alice' },
          { age: { $gte: 30 } },
          { $and: [{ group: { $in: ['a', 'b'] } }, { name: { $ne: 'B&b' } }] },
        ],
        group: { $in: ['x'], $nin: ['y', 'z'] },
        $sort: { age: -1, name: 1 },
        $select: ['name', 'age'],
        $limit: 5,
      };
      expect((await app.service('echo').find({ query })).query).toEqual(asStrings(query));
    });

    it('fill :name placeholders from params.route, encoded', async () => {
      const nested = createApp().use(
        'users/:userId/messages',
        library.client(server.url).service('users/:userId/messages'),
      );
      const result = await nested.service('users/:userId/messages').get('m 1', { route: { userId: 'u/1 2' } });
      expect(result).toMatchObject({ id: 'm 1', route: { userId: 'u/1 2' } });
    });
  });

  describe('headers', () => {
    it('send the client defaults, params.headers per call, and merge params.connection.headers', async () => {
      const result = await app.service('echo').patch(
        1,
        { a: 1 },
        {
          headers: { 'X-Call': 'call', Authorization: 'Bearer call' },
          connection: { headers: { 'X-Conn': 'conn' } },
        },
      );
      expect(result.data).toEqual({ a: 1 });
      expect(result.headers).toEqual({
        accept: 'application/json',
        authorization: 'Bearer call',
        'content-type': 'application/json',
        'x-call': 'call',
        'x-conn': 'conn',
        'x-default': 'default',
      });
    });
  });

  /** An option each library understands, visible on the server (fetch's pass-through is unit-tested). */
  const LIBRARY_OPTION: Record<string, Record<string, unknown> | undefined> = {
    axios: { params: { viaLibrary: 'axios' } },
    superagent: { query: { viaLibrary: 'superagent' } },
  };
  const libraryOption = LIBRARY_OPTION[library.name];
  itIf(libraryOption !== undefined, `${library.name} takes no per-call options here (its pass-through is unit-tested)`)(
    'pass params.connection to the library',
    async () => {
      const result = await app
        .service('echo')
        .find({ query: { a: '1' }, connection: { ...libraryOption, headers: { 'X-Conn': 'c' } } });
      expect(result.query).toEqual({ a: '1', viaLibrary: library.name });
      expect(result.headers).toMatchObject({ 'x-conn': 'c', 'x-default': 'default' });
    },
  );

  describe('custom methods', () => {
    let remote: Application;
    beforeEach(() => {
      remote = createApp().use('messages', library.client(server.url).service('messages'), {
        methods: ['find', 'create', 'sum'],
      });
    });

    it('are sent as POST with X-Service-Method', async () => {
      expect(await remote.service('messages').sum({ values: [1, 2, 3] })).toEqual({ total: 6 });
      const echo = createApp().use('echo', library.client(server.url).service('echo'), { methods: ['inspect'] });
      const seen = await echo.service('echo').inspect({ x: 1 }, { query: { q: '1' }, headers: { 'X-Call': 'c' } });
      expect(seen).toMatchObject({
        method: 'inspect',
        data: { x: 1 },
        query: { q: '1' },
        headers: { 'x-service-method': 'inspect', 'x-call': 'c' },
      });
    });

    it('are not callable unless listed', () => {
      expect(remote.service('messages').shout).toBeUndefined();
    });

    it('emit no event', async () => {
      const events: unknown[] = [];
      remote.service('messages').on('created', (item: unknown) => events.push(item));
      await remote.service('messages').sum({ values: [1] });
      expect(events).toEqual([]);
    });
  });

  describe('local events', () => {
    it('are emitted once per record for calls through the client service, none for failures', async () => {
      const local = createApp().use('messages', library.client(server.url).service('messages'));
      const service = local.service('messages');
      const events: Array<[string, unknown]> = [];
      for (const name of ['created', 'updated', 'patched', 'removed'])
        service.on(name, (item: unknown) => events.push([name, item]));
      const [one, two] = await service.create([
        { text: 'one', tag: 'ev' },
        { text: 'two', tag: 'ev' },
      ]);
      const updated = await service.update(one.id, { text: 'one!', tag: 'ev' });
      const patched = await service.patch(null, { read: true }, { query: { tag: 'ev' } });
      await expect(service.patch(one.id, {}, { query: { $bad: 1 } })).rejects.toMatchObject({ name: 'BadRequest' });
      await expect(service.get('missing')).rejects.toMatchObject({ name: 'NotFound' });
      const removed = await service.remove(two.id);
      expect(events).toEqual([
        ['created', one],
        ['created', two],
        ['updated', updated],
        ['patched', patched[0]],
        ['patched', patched[1]],
        ['removed', removed],
      ]);
    });
  });
});
