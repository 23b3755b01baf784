import type { Redis } from 'ioredis';
import type { EventBusPort, EventEnvelope } from '../../ports/event-bus.port';
import type { LoggerPort } from '../../ports/logger.port';
import { closeRedisClient, createRedisClient } from './redis-connection';
import { parseEnvelope } from './parse-envelope';

export interface RedisEventBusOptions {
  url: string;
  logger: LoggerPort;
  /** The pub/sub channel shared by the instances of one application. Default 'hexa-services:events'. */
  channel?: string;
  /** Larger envelopes (in JSON characters) are not shared, with a log line. Default 1 MB. */
  maxEnvelopeBytes?: number;
}

/**
 * Service events shared between instances through Redis pub/sub: one connection publishes, one
 * subscribes. Best effort by design: while Redis is down, `publish` drops envelopes at once (the
 * call that caused the event is unaffected and local delivery goes on), one warning is logged
 * per outage, and both connections come back (and re-subscribe) by themselves.
 */
export class RedisEventBus implements EventBusPort {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;
  private readonly maxEnvelopeBytes: number;
  private readonly handlers: ((envelope: EventEnvelope) => void)[] = [];
  private down = false;
  private closed = false;
  /** Before the first connection, a dropped envelope is start-up, not an outage ('error' events report a Redis that never comes). */
  private everReady = false;

  constructor(private readonly options: RedisEventBusOptions) {
    this.channel = options.channel ?? 'hexa-services:events';
    this.maxEnvelopeBytes = options.maxEnvelopeBytes ?? 1_000_000;
    this.publisher = createRedisClient(options.url);
    // The subscriber queues its SUBSCRIBE until connected and repeats it after every reconnect.
    this.subscriber = createRedisClient(options.url, { enableOfflineQueue: true, maxRetriesPerRequest: null, autoResubscribe: true });
    for (const client of [this.publisher, this.subscriber]) {
      client.on('error', (error: Error) => this.noteDown(error.message));
      client.on('end', () => this.noteDown('connection closed'));
      client.on('ready', () => this.noteUp());
    }
    this.subscriber.on('message', (channel: string, text: string) => this.receive(channel, text));
    this.subscriber.subscribe(this.channel).catch((error: Error) => this.noteDown(error.message));
  }

  publish(envelope: EventEnvelope): void {
    if (this.closed) return;
    let text: string;
    try {
      text = JSON.stringify(envelope);
    } catch (error) {
      this.options.logger.error({ path: envelope.path, event: envelope.event, err: (error as Error).message }, 'event not shared: its data is not serialisable');
      return;
    }
    if (text.length > this.maxEnvelopeBytes) {
      this.options.logger.warn({ path: envelope.path, event: envelope.event, bytes: text.length }, 'event not shared: envelope over the size limit');
      return;
    }
    if (this.publisher.status !== 'ready') {
      if (this.everReady) this.noteDown(`redis ${this.publisher.status}`);
      return;
    }
    this.publisher.publish(this.channel, text).catch((error: Error) => this.noteDown(error.message));
  }

  subscribe(handler: (envelope: EventEnvelope) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([closeRedisClient(this.publisher), closeRedisClient(this.subscriber)]);
  }

  private receive(channel: string, text: string): void {
    if (channel !== this.channel) return;
    const envelope = parseEnvelope(text);
    if (!envelope) {
      this.options.logger.warn({ channel }, 'ignoring a malformed event envelope from the bus');
      return;
    }
    for (const handler of this.handlers) handler(envelope);
  }

  private noteDown(reason: string): void {
    if (this.down || this.closed) return;
    this.down = true;
    this.options.logger.warn({ reason }, 'event bus (redis) unavailable: events reach this instance\'s clients only until it is back');
  }

  private noteUp(): void {
    if (this.publisher.status === 'ready' && this.subscriber.status === 'ready') this.everReady = true;
    if (!this.down || this.publisher.status !== 'ready' || this.subscriber.status !== 'ready') return;
    this.down = false;
    this.options.logger.info('event bus (redis) is back: events are shared between instances again');
  }
}
