import { createApp, type Application } from '../../../../src/application/app/application';
import { channels } from '../../../../src/application/channels/channels';
import type { ConnectionTransport, RealTimeConnection } from '../../../../src/application/channels/connection';
import { concretePath, publishedView } from '../../../../src/application/channels/published-view';
import { protectFields } from '../../../../src/application/hooks/protect-fields.hook';
import { MemoryService } from '../../../../src/adapters/memory';

/** A transport that records each `send`: one call per payload, with every recipient. */
class RecordingTransport implements ConnectionTransport {
  readonly sends: { eventName: string; data: unknown; to: string[] }[] = [];
  send(eventName: string, data: unknown, connections: readonly RealTimeConnection[]): void {
    this.sends.push({ eventName, data, to: connections.map((connection) => connection.name as string) });
  }
}

function setUp(): { app: Application; transport: RecordingTransport; connect(name: string): RealTimeConnection } {
  const app = createApp();
  app.configure(channels());
  const transport = new RecordingTransport();
  return {
    app,
    transport,
    connect: (name) => {
      const connection: RealTimeConnection = { provider: 'test', name };
      app.realtime!.connect(connection, transport);
      return connection;
    },
  };
}

describe('channels', () => {
  it(
    'named channels: created on use, join ignores duplicates, forgotten ' +
      'when empty; filter and send make new channels',
    () => {
      const { app, connect } = setUp();
      const a = connect('a');
      const b = connect('b');
      app.channel('room').join(a, a, [b]);
      expect(app.channel('room').length).toBe(2);
      expect(app.channels).toEqual(['room']);
      const filtered = app.channel('room').filter((connection) => connection === a);
      expect(filtered.connections).toEqual([a]);
      expect(app.channel('room').send({ x: 1 }).data).toEqual({ x: 1 });
      expect(app.channel('room').data).toBeNull();
      app
        .channel('room')
        .leave((connection) => connection === a)
        .leave(b);
      expect(app.channels).toEqual([]);
      expect(() => app.channel()).toThrow('at least one channel name');
    },
  );

  it(
    'a connection in several published channels gets the event once; the ' +
      "first channel's send() data wins; one send per payload",
    async () => {
      const { app, transport, connect } = setUp();
      const [a, b, c] = [connect('a'), connect('b'), connect('c')];
      app.channel('x').join(a, b);
      app.channel('y').join(b, c);
      app.use('notes', new MemoryService());
      app
        .service('notes')
        .publish('created', () => [app.channel('x'), app.channel('y').send({ custom: true }), app.channel('x', 'y')]);
      const note = await app.service('notes').create({ text: 'hi' });
      expect(transport.sends).toEqual([
        { eventName: 'notes created', data: note, to: ['a', 'b'] },
        { eventName: 'notes created', data: { custom: true }, to: ['c'] },
      ]);
    },
  );

  it(
    'publisher precedence: service event, service catch-all, app ' + 'event, app catch-all; null sends nothing',
    async () => {
      const { app, transport, connect } = setUp();
      app.channel('all').join(connect('a'));
      app.use('one', new MemoryService());
      app.use('two', new MemoryService());
      app.publish(() => app.channel('all').send('app catch-all'));
      app.publish('removed', () => app.channel('all').send('app removed'));
      app.service('one').publish(() => app.channel('all').send('one catch-all'));
      app.service('one').publish('patched', () => null);
      const one = await app.service('one').create({});
      await app.service('one').patch(one.id, {});
      const two = await app.service('two').create({});
      await app.service('two').remove(two.id);
      expect(transport.sends.map((send) => send.data)).toEqual(['one catch-all', 'app catch-all', 'app removed']);
    },
  );

  it('disconnect leaves every channel; a thrown publisher never fails the call', async () => {
    const { app, transport, connect } = setUp();
    const a = connect('a');
    app.channel('x').join(a);
    app.channel('y').join(a);
    app.realtime!.disconnect(a);
    expect(app.channels).toEqual([]);
    app.use('notes', new MemoryService());
    app.service('notes').publish(() => {
      throw new Error('publisher bug');
    });
    await expect(app.service('notes').create({ text: 'still stored' })).resolves.toMatchObject({
      text: 'still stored',
    });
    expect(transport.sends).toEqual([]);
  });

  it(
    'the published view is the dispatch (hidden fields stripped), ' + 'per item for arrays, for internal calls too',
    async () => {
      const { app, transport, connect } = setUp();
      app.channel('all').join(connect('a'));
      app.use('people', new MemoryService({ multi: true }));
      app.service('people').hooks({ around: { all: [protectFields('secret')] } });
      app.service('people').publish(() => app.channel('all'));
      await app.service('people').create([
        { name: 'a', secret: 1 },
        { name: 'b', secret: 2 },
      ]);
      expect(transport.sends.map((send) => send.data)).toEqual([
        { id: 0, name: 'a' },
        { id: 1, name: 'b' },
      ]);
    },
  );

  it('concrete paths and published views', () => {
    expect(concretePath('rooms/:roomId/notes', { roomId: '7' })).toBe('rooms/7/notes');
    expect(concretePath('rooms/:roomId/notes')).toBe('rooms/:roomId/notes');
    expect(concretePath('messages', { x: '1' })).toBe('messages');
    const item = { id: 1, secret: 'x' };
    expect(publishedView(item)).toBe(item);
    expect(publishedView(item, { result: item, dispatch: { id: 1 } } as never)).toEqual({ id: 1 });
  });
});
