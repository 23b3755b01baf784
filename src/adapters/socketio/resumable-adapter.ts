import type { Adapter, Session } from 'socket.io-adapter';
import type { EventPacket } from './resume-window';

/** What socket.io keeps of a connection that dropped (its id, private id, rooms and data). */
export type DroppedSession = Omit<Session, 'missedPackets'>;

type Resumed = (DroppedSession & { missedPackets: EventPacket[] }) | undefined;

/** Where a transport keeps dropped connections and the events they missed. */
export interface SessionKeeper {
  /** A connection dropped in a way it may come back from (a lost network, not a logout or a kick). */
  dropped(session: DroppedSession): void;
  /** The session of `pid` and what it missed after `offset`; undefined when it cannot resume. */
  resumed(pid: string, offset: string): Resumed | Promise<Resumed>;
}

/**
 * The in-memory adapter of socket.io (rooms, broadcasts) with connection state recovery served
 * by the transport's own window: socket.io's session-aware adapter replays only broadcasts to
 * rooms, while events here are views made for each connection, kept per connection.
 */
export function resumableAdapter(keeper: SessionKeeper): typeof Adapter {
  // Loaded with socket.io itself, when sockets are attached: an application serving HTTP only does not carry it.
  const { Adapter: InMemoryAdapter } = require('socket.io-adapter') as typeof import('socket.io-adapter');
  return class ResumableAdapter extends InMemoryAdapter {
    override persistSession(session: Session): void {
      keeper.dropped(session);
    }

    override async restoreSession(pid: string, offset: string): Promise<Session> {
      // socket.io's own signature says Session; it treats a null answer as "not recovered".
      return (await keeper.resumed(pid, offset)) ?? (null as unknown as Session);
    }
  };
}
