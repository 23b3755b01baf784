import type { HookContext } from '../hooks/hook-context';
import type { Channel } from './channel';

type MaybeChannels = Channel | readonly (Channel | null | undefined)[] | null | undefined | void;

/** Decides which channels receive an event: a channel, a list of channels, nothing, or a promise of those. */
export type Publisher = (data: any, context: PublishContext) => MaybeChannels | Promise<MaybeChannels>;

/**
 * What a publisher sees. For an event caused on this instance it is the call's hook context; for
 * one received from another instance it holds only the routing fields of the envelope
 * (`path`, `method`, `event`, `params.route`, `result`/`dispatch` = the published data) and
 * `remote: true`: publishers must decide from the data and these fields alone.
 */
export type PublishContext = Partial<HookContext> & { path: string; remote?: boolean };

const ALL = Symbol('allEvents');

/** Publishers of one level (the app, or one service): per event name, and a catch-all. */
export class PublisherSet {
  private readonly byEvent = new Map<string | typeof ALL, Publisher>();

  set(event: string | undefined, publisher: Publisher): void {
    if (typeof publisher !== 'function') throw new Error('A publisher must be a function');
    this.byEvent.set(event ?? ALL, publisher);
  }

  /** The publisher for `event`, else the catch-all. */
  for(event: string): Publisher | undefined {
    return this.byEvent.get(event) ?? this.byEvent.get(ALL);
  }
}

/** `publish(fn)` or `publish(event, fn)`. */
export function publisherArguments(
  eventOrPublisher: string | Publisher,
  publisher?: Publisher,
): [string | undefined, Publisher] {
  return typeof eventOrPublisher === 'function'
    ? [undefined, eventOrPublisher]
    : [eventOrPublisher, publisher as Publisher];
}
