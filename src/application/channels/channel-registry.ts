import { Channel, CombinedChannel, NamedChannel } from './channel';
import type { RealTimeConnection } from './connection';

/** The app's named channels: created on first use, forgotten when they become empty. */
export class ChannelRegistry {
  private readonly named = new Map<string, NamedChannel>();

  get names(): string[] {
    return [...this.named.keys()];
  }

  /** One name: that channel; several (or a list): a combined channel over all of them. */
  channel(...names: (string | readonly string[])[]): Channel {
    const flat = names.flat();
    if (flat.length === 0) throw new Error('app.channel needs at least one channel name');
    if (flat.length === 1) return this.named1(flat[0]);
    return new CombinedChannel(flat.map((name) => this.named1(name)));
  }

  /** Takes `connection` out of every channel (logout, disconnect, a new login). */
  leaveAll(connection: RealTimeConnection): void {
    for (const channel of [...this.named.values()]) if (channel.has(connection)) channel.leave(connection);
  }

  private named1(name: string): NamedChannel {
    if (typeof name !== 'string' || name === '') throw new Error('A channel name must be a non-empty string');
    let channel = this.named.get(name);
    if (!channel) {
      channel = new NamedChannel(name, (empty) => {
        if (this.named.get(empty.name) === empty) this.named.delete(empty.name);
      });
      this.named.set(name, channel);
    }
    return channel;
  }
}
