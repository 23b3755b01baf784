import type { RealTimeConnection } from './connection';

type ConnectionOrList = RealTimeConnection | readonly RealTimeConnection[];
type ConnectionPredicate = (connection: RealTimeConnection) => boolean;

/**
 * A set of connections an event may be sent to, with optional data that replaces the event's
 * payload for them (`send`). `filter` and `send` return new channels; `join` and `leave` change
 * this one.
 */
export class Channel {
  protected readonly members: Set<RealTimeConnection>;
  private list?: RealTimeConnection[];

  constructor(
    connections: Iterable<RealTimeConnection> = [],
    readonly data: unknown = null,
  ) {
    this.members = new Set(connections);
  }

  /** The members (a cached array, rebuilt after a change). */
  get connections(): readonly RealTimeConnection[] {
    return (this.list ??= [...this.members]);
  }

  get length(): number {
    return this.members.size;
  }

  has(connection: RealTimeConnection): boolean {
    return this.members.has(connection);
  }

  join(...connections: ConnectionOrList[]): this {
    for (const item of connections.flat())
      if (item && !this.members.has(item)) {
        this.members.add(item);
        this.list = undefined;
      }
    return this;
  }

  /** Removes the given connections, or every member a predicate selects. */
  leave(...connections: (ConnectionOrList | ConnectionPredicate)[]): this {
    const [first] = connections;
    const leaving =
      typeof first === 'function' ? this.connections.filter(first) : (connections as ConnectionOrList[]).flat();
    for (const item of leaving) if (this.members.delete(item)) this.list = undefined;
    if (this.members.size === 0) this.emptied();
    return this;
  }

  filter(predicate: ConnectionPredicate): Channel {
    return new Channel(this.connections.filter(predicate), this.data);
  }

  /** The same members with `data` as their payload of the event being published. */
  send(data: unknown): Channel {
    return new Channel(this.members, data);
  }

  /** Named channels drop out of the app's list when they become empty. */
  protected emptied(): void {}
}

/** A channel the app keeps under a name (`app.channel('authenticated')`); forgotten once empty. */
export class NamedChannel extends Channel {
  constructor(
    readonly name: string,
    private readonly onEmpty: (channel: NamedChannel) => void,
  ) {
    super();
  }

  protected override emptied(): void {
    this.onEmpty(this);
  }
}

/** Several named channels at once (`app.channel('a', 'b')`): members are the union; join and leave apply to each. */
export class CombinedChannel extends Channel {
  constructor(
    private readonly children: readonly Channel[],
    data: unknown = null,
  ) {
    super(
      children.flatMap((child) => child.connections),
      data,
    );
  }

  override join(...connections: ConnectionOrList[]): this {
    for (const child of this.children) child.join(...connections);
    return super.join(...connections);
  }

  override leave(...connections: (ConnectionOrList | ConnectionPredicate)[]): this {
    for (const child of this.children) child.leave(...connections);
    return super.leave(...connections);
  }
}
