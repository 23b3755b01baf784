import { Channel } from '../../../../src/application/channels/channel';
import {
  bindTransport,
  type ConnectionTransport,
  type RealTimeConnection,
} from '../../../../src/application/channels/connection';
import { deliverToChannels } from '../../../../src/application/channels/event-delivery';
import { PolicyViews, type ComputedFields } from '../../../../src/application/policy/policy-views';
import type { ServicePolicy } from '../../../../src/application/policy/service-policy';

/** A transport that records each `send`: one call per payload it is asked to encode. */
class RecordingTransport implements ConnectionTransport {
  readonly sends: { data: unknown; to: string[] }[] = [];
  send(_eventName: string, data: unknown, connections: readonly RealTimeConnection[]): void {
    this.sends.push({ data, to: connections.map((connection) => connection.name as string) });
  }
}

/** Users read `_id` and `text`; admins everything. */
const twoRoles: ServicePolicy = (caller, { can }) => {
  if (caller.anonymous) return;
  can('read', ['_id', 'text']);
  if (caller.roles.includes('admin')) can('read');
};

function connected(transport: ConnectionTransport, name: string, user?: Record<string, unknown>): RealTimeConnection {
  const connection: RealTimeConnection = { provider: 'test', name, user };
  bindTransport(connection, transport);
  return connection;
}

describe('deliverToChannels through a policy', () => {
  const record = { _id: 'm1', text: 'hello', userId: 'u1', likedBy: ['u2'] };

  it(
    'hands the transport one payload per distinct view, shared by every ' +
      'connection that sees it, and none to those who may not read',
    () => {
      const transport = new RecordingTransport();
      const views = new PolicyViews({
        path: 'messages',
        policy: twoRoles,
        rolesField: 'roles',
        idField: '_id',
        hiddenFields: [],
      });
      const users = Array.from({ length: 4 }, (_, index) =>
        connected(transport, `user${index}`, { _id: `u${index}`, roles: [] }),
      );
      const admins = Array.from({ length: 2 }, (_, index) =>
        connected(transport, `admin${index}`, { _id: `a${index}`, roles: ['admin'] }),
      );
      const anonymous = connected(transport, 'anonymous');

      deliverToChannels('created', record, new Channel([...users, anonymous, ...admins]), views);

      expect(transport.sends).toEqual([
        { data: { _id: 'm1', text: 'hello' }, to: ['user0', 'user1', 'user2', 'user3'] },
        { data: record, to: ['admin0', 'admin1'] },
      ]);
      // The next event is viewed afresh: its own payloads.
      const next = { ...record, text: 'again' };
      deliverToChannels('patched', next, new Channel(users.slice(0, 1)), views);
      expect(transport.sends[2]).toEqual({ data: { _id: 'm1', text: 'again' }, to: ['user0'] });
    },
  );

  it('gives viewers with the same fields but a different computed value views of their own', () => {
    const transport = new RecordingTransport();
    const computed: ComputedFields = {
      liked: (message, caller) => (message.likedBy as string[]).includes(caller.id ?? ''),
    };
    const views = new PolicyViews({
      path: 'messages',
      policy: twoRoles,
      rolesField: 'roles',
      idField: '_id',
      hiddenFields: [],
      computed,
    });
    const liker = connected(transport, 'liker', { _id: 'u2', roles: [] });
    const others = [
      connected(transport, 'other1', { _id: 'u3', roles: [] }),
      connected(transport, 'other2', { _id: 'u4', roles: [] }),
    ];

    deliverToChannels('created', record, new Channel([liker, ...others]), views);

    expect(transport.sends).toEqual([
      { data: { _id: 'm1', text: 'hello', liked: true }, to: ['liker'] },
      { data: { _id: 'm1', text: 'hello', liked: false }, to: ['other1', 'other2'] },
    ]);
  });
});
