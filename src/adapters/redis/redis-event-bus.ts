import type { Redis } from 'ioredis';
import type { EventBusPort, EventEnvelope } from '../../ports/event-bus.port';
import type { LoggerPort } from '../../ports/logger.port';
import type { MetricsPort } from '../../ports/metrics.port';
import type { TraceParent, TracerPort } from '../../ports/tracer.port';
import { closeRedisClient, createRedisClient } from './redis-connection';
import { parseEnvelope } from './parse-envelope';
import { deliverTraced, sendTraced } from './traced-envelopes';

export interface RedisEventBusOptions {
  url: string;
  logger: LoggerPort;
  /** The pub/sub channel shared by the instances of one application. Default 'hexa-services:events'. */
  channel?: string;
  /** Larger envelopes (in JSON characters) are not shared, with a log line. Default 1 MB. */
  maxEnvelopeBytes?: number;
  /**
   * Traces each publication (a producer span whose context the envelope carries) and each delivery (a consumer span
   * linked to it).
   */
  tracer?: TracerPort;
  /** Counts envelopes published, received and dropped. */
  metrics?: MetricsPort;
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
  /**
   * Before the first connection, a dropped envelope is start-up, not an outage ('error' events report a Redis that
   * never comes).
   */
  private everReady = false;

  constructor(private readonly options: RedisEventBusOptions) {
    this.channel = options.channel ?? 'hexa-services:events';
    this.maxEnvelopeBytes = options.maxEnvelopeBytes ?? 1_000_000;
    this.publisher = createRedisClient(options.url);
    // The subscriber queues its SUBSCRIBE until connected and repeats it after every reconnect.
    this.subscriber = createRedisClient(options.url, {
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      autoResubscribe: true,
    });
    for (const client of [this.publisher, this.subscriber]) {
      client.on('error', (error: Error) => this.noteDown(error.message));
      client.on('end', () => this.noteDown('connection closed'));
      client.on('ready', () => this.noteUp());
    }
    this.subscriber.on('message', (channel: string, text: string) => this.receive(channel, text));
    this.subscriber.subscribe(this.channel).catch((error: Error) => this.noteDown(error.message));
  }

  publish(envelope: EventEnvelope, traceParent?: TraceParent): void {
    if (this.closed) return;
    const tracer = this.options.tracer;
    if (tracer === undefined) return this.send(envelope);
    sendTraced(
      tracer,
      this.channel,
      envelope,
      traceParent,
      (traced) => this.send(traced),
      (error) => this.reportFailure(error, envelope),
    );
  }

  private send(envelope: EventEnvelope): void {
    const metrics = this.options.metrics;
    let text: string;
    try {
      text = JSON.stringify(envelope);
    } catch (error) {
      this.options.logger.error(
        { path: envelope.path, event: envelope.event, err: (error as Error).message },
        'event not shared: its data is not serialisable',
      );
      metrics?.busEvent('dropped');
      return;
    }
    if (text.length > this.maxEnvelopeBytes) {
      this.options.logger.warn(
        { path: envelope.path, event: envelope.event, bytes: text.length },
        'event not shared: envelope over the size limit',
      );
      metrics?.busEvent('dropped');
      return;
    }
    if (this.publisher.status !== 'ready') {
      if (this.everReady) this.noteDown(`redis ${this.publisher.status}`);
      metrics?.busEvent('dropped');
      return;
    }
    this.publisher.publish(this.channel, text).then(
      () => metrics?.busEvent('published'),
      (error: Error) => {
        metrics?.busEvent('dropped');
        this.noteDown(error.message);
      },
    );
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
    this.options.metrics?.busEvent('delivered');
    const tracer = this.options.tracer;
    if (tracer === undefined) return this.deliver(envelope);
    deliverTraced(
      tracer,
      this.channel,
      envelope,
      () => this.deliver(envelope),
      (error) => this.reportFailure(error, envelope),
    );
  }

  /** The traced paths run in a promise: what would have been thrown is logged rather than left unhandled. */
  private reportFailure(error: unknown, envelope: EventEnvelope): void {
    this.options.logger.error(
      { path: envelope.path, event: envelope.event, err: (error as Error)?.message },
      'event bus: handling an envelope failed',
    );
  }

  private deliver(envelope: EventEnvelope): void {
    for (const handler of this.handlers) handler(envelope);
  }

  private noteDown(reason: string): void {
    if (this.down || this.closed) return;
    this.down = true;
    this.options.logger.warn(
      { reason },
      "event bus (redis) unavailable: events reach this instance's clients only until it is back",
    );
  }

  private noteUp(): void {
    if (this.publisher.status === 'ready' && this.subscriber.status === 'ready') this.everReady = true;
    if (!this.down || this.publisher.status !== 'ready' || this.subscriber.status !== 'ready') return;
    this.down = false;
    this.options.logger.info('event bus (redis) is back: events are shared between instances again');
  }
}
