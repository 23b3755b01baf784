import type { RecordView, RecordVisibility } from '../../ports/service-options';
import type { Channel } from './channel';
import { transportOf, type ConnectionTransport, type RealTimeConnection } from './connection';

type Returned = Channel | readonly (Channel | null | undefined)[] | null | undefined | void;

/** Where one delivery goes: its place in the event log, and only one connection when a client resumes. */
export interface Delivery {
  readonly position?: string;
  /** Replaying to a connection that comes back: the others had the event already. */
  readonly only?: RealTimeConnection;
}

const EVERYONE: Delivery = {};

/**
 * Sends one event to the connections of the channels a publisher returned: each connection
 * once (the first channel naming it decides its payload: its `send()` data, else `data`), and
 * each distinct payload handed to each transport once, so the transport encodes it once. With
 * the service's `visibility`, each connection gets its own view of the payload (none when it may
 * not read the record), and connections with the same view share one payload.
 */
export function deliverToChannels(
  eventName: string,
  data: unknown,
  returned: Returned,
  visibility?: RecordVisibility,
  delivery: Delivery = EVERYONE,
): void {
  if (!returned) return;
  const { only, position } = delivery;
  let channels = (Array.isArray(returned) ? returned : [returned]) as (Channel | null | undefined)[];
  // The first channel naming the connection decides its payload, as below.
  if (only)
    channels = channels
      .filter((channel) => channel?.has(only))
      .slice(0, 1)
      .map((channel) => channel!.filter((connection) => connection === only));
  if (channels.length === 1 && !visibility) {
    const single = channels[0];
    if (single && single.length > 0) sendGroup(eventName, single.data ?? data, single.connections, position);
    return;
  }
  const seen = new Set<RealTimeConnection>();
  // By payload, then by view (one view, the payload itself, without a visibility).
  const groups = new Map<unknown, Map<string, { view: unknown; connections: RealTimeConnection[] }>>();
  for (const channel of channels) {
    if (!channel) continue;
    const payload = channel.data ?? data;
    const asIs: RecordView = { key: '', view: payload as RecordView['view'] };
    let views = groups.get(payload);
    if (!views) groups.set(payload, (views = new Map()));
    for (const connection of channel.connections) {
      if (seen.has(connection)) continue;
      seen.add(connection);
      const seenAs = visibility ? visibility.viewFor(connection.user, payload) : asIs;
      if (!seenAs) continue;
      const group = views.get(seenAs.key);
      if (group) group.connections.push(connection);
      else views.set(seenAs.key, { view: seenAs.view, connections: [connection] });
    }
  }
  for (const views of groups.values())
    for (const { view, connections } of views.values()) sendGroup(eventName, view, connections, position);
}

/** Sends one payload to `connections`, through each one's transport (encoded once per transport). */
export function sendGroup(
  eventName: string,
  payload: unknown,
  connections: readonly RealTimeConnection[],
  position?: string,
): void {
  let single: ConnectionTransport | undefined;
  let mixed: Map<ConnectionTransport, RealTimeConnection[]> | undefined;
  for (const connection of connections) {
    const transport = transportOf(connection);
    if (!transport) continue;
    if (single === undefined) single = transport;
    else if (transport !== single) mixed ??= new Map();
  }
  if (!single) return;
  if (!mixed) return single.send(eventName, payload, connections, position);
  for (const connection of connections) {
    const transport = transportOf(connection);
    if (!transport) continue;
    let list = mixed.get(transport);
    if (!list) mixed.set(transport, (list = []));
    list.push(connection);
  }
  for (const [transport, list] of mixed) transport.send(eventName, payload, list, position);
}
