import type { Application } from '../app/application';
import { mixInEmitter } from '../app/registered-service';
import type { Channel } from './channel';
import { publisherArguments, type Publisher } from './publishers';
import { RealTimeHub, type RealTimeOptions } from './real-time-hub';

type Listener = (...args: any[]) => void;

declare module '../app/application' {
  interface Application {
    /** The real-time side (connections, channels, publishers); set by `app.configure(channels())`. */
    realtime?: RealTimeHub;
    /** A named channel, or several combined: `app.channel('authenticated')`, `app.channel(app.channels)`. */
    channel(...names: (string | readonly string[])[]): Channel;
    /** The names of the channels that have members. */
    readonly channels: string[];
    /** The app-wide publisher, for one event or (without a name) every event. */
    publish(event: string, publisher: Publisher): this;
    publish(publisher: Publisher): this;
    /** App events: `connection`, `login`, `logout`, `disconnect` (and any a plugin emits). */
    on(event: string, listener: Listener): this;
    once(event: string, listener: Listener): this;
    off(event: string, listener?: Listener): this;
    emit(event: string, ...args: unknown[]): boolean;
  }
}

/**
 * Real-time channels and publishing: `app.configure(channels())`. Adds `app.channel`,
 * `app.channels`, `app.publish`, `service.publish` and the app events, for this app and every
 * service registered on it (before or after). Transports reach it through `app.realtime`.
 */
export function channels(options: RealTimeOptions = {}) {
  return (app: Application): void => {
    if (app.realtime) return;
    mixInEmitter(app);
    const hub = new RealTimeHub(app as Application & { emit(event: string, ...args: unknown[]): boolean }, options);
    Object.defineProperties(app, {
      realtime: { value: hub, configurable: true },
      channel: {
        value: (...names: (string | readonly string[])[]) => hub.channels.channel(...names),
        configurable: true,
      },
      channels: { get: () => hub.channels.names, configurable: true },
      publish: {
        value(this: Application, eventOrPublisher: string | Publisher, publisher?: Publisher) {
          hub.appPublishers.set(...publisherArguments(eventOrPublisher, publisher));
          return this;
        },
        configurable: true,
      },
    });
    const extend = (entry: Parameters<RealTimeHub['attachService']>[0]) => {
      Object.defineProperty(entry.wrapper, 'publish', {
        value(eventOrPublisher: string | Publisher, publisher?: Publisher) {
          hub.publishersOf(entry.path).set(...publisherArguments(eventOrPublisher, publisher));
          return entry.wrapper;
        },
        configurable: true,
      });
      hub.attachService(entry);
    };
    for (const entry of app.entries()) extend(entry);
    app.mixins.push((entry) => extend(entry));
  };
}
