import type { Redis } from 'ioredis';
import { copyWith } from '../../domain/plain-record';
import type { EventEnvelope } from '../../ports/event-bus.port';
import { isAfter, type EventLogPort, type LoggedEvent } from '../../ports/event-log.port';
import type { LoggerPort } from '../../ports/logger.port';
import type { MetricsPort } from '../../ports/metrics.port';
import { closeRedisClient, createRedisClient } from './redis-connection';
import { parseEnvelope } from './parse-envelope';
import { RedisStreamAppender } from './redis-stream-appender';
import { deliverTraced, sendTraced } from './traced-envelopes';
import type { TraceParent, TracerPort } from '../../ports/tracer.port';

export interface RedisEventLogOptions {
  url: string;
  logger: LoggerPort;
  /** How long events are kept: the resume window. */
  keepMs: number;
  /** Events kept at most, whatever their age. Default 100,000. */
  maxEvents?: number;
  /** Envelopes that may wait for Redis while it is down; past it the oldest are reported lost. Default 10,000. */
  maxWaiting?: number;
  /** The stream's key, shared by the instances of one application. Default 'hexa-services:events'. */
  key?: string;
  /** Larger envelopes (in JSON characters) are not logged, with a log line. Default 1 MB. */
  maxEnvelopeBytes?: number;
  metrics?: MetricsPort;
  /**
   * Traces each append (a producer span whose context the envelope carries) and each delivery (a consumer span linked
   * to it).
   */
  tracer?: TracerPort;
}

/** Envelopes read per XREAD: a burst is delivered in a few round trips, not one per event. */
const READ_BATCH = 512;
/** How long one blocking read waits before it looks again (it also notices `close`). */
const READ_BLOCK_MS = 2_000;

/**
 * The instances' service events in one Redis Stream: XADD appends (trimmed by age and count), one
 * blocking XREAD loop per instance delivers every entry in stream order, and stream IDs are the
 * positions clients resume from. Unlike pub/sub, an instance that was away reads on from where it
 * was, and a client that comes back to another instance is given what it missed from the stream.
 * While Redis is down, appended envelopes wait in memory (bounded) and are written, in order,
 * when it returns; one warning per outage.
 */
export class RedisEventLog implements EventLogPort {
  private readonly writer: Redis;
  private readonly reader: Redis;
  private readonly key: string;
  private readonly appender: RedisStreamAppender;
  private readonly maxWaiting: number;
  private readonly handlers: ((event: LoggedEvent) => void)[] = [];
  /** Stamps this instance's envelopes, in order: after an outage, what did reach Redis is told apart. */
  private sequence = 0;
  private lastPosition = '0-0';
  private started = false;
  private closed = false;
  private down = false;

  constructor(private readonly options: RedisEventLogOptions) {
    this.key = options.key ?? 'hexa-services:events';
    // A write cut by a broken connection fails rather than being sent again by the client: the
    // log then looks whether it landed before writing it again (no duplicate entries).
    this.writer = createRedisClient(options.url, { maxRetriesPerRequest: 0, autoResendUnfulfilledCommands: false });
    // The reader blocks in XREAD: a connection of its own, which waits for Redis rather than failing.
    this.reader = createRedisClient(options.url, { enableOfflineQueue: true, maxRetriesPerRequest: null });
    for (const client of [this.writer, this.reader]) {
      client.on('error', (error: Error) => this.noteDown(error.message));
      client.on('end', () => this.noteDown('connection closed'));
    }
    this.maxWaiting = options.maxWaiting ?? 10_000;
    this.appender = new RedisStreamAppender(this.writer, {
      key: this.key,
      keepMs: options.keepMs,
      maxEvents: options.maxEvents ?? 100_000,
      maxWaiting: this.maxWaiting,
      batchSize: READ_BATCH,
      metrics: options.metrics,
      onDown: (reason) => this.noteDown(reason),
      onUp: () => this.noteUp(),
    });
  }

  /** Not after an outage until what waited for Redis is written: events stay in order. */
  get reachable(): boolean {
    return this.writer.status === 'ready' && !this.down;
  }

  get position(): string {
    return this.lastPosition;
  }

  /**
   * Starts reading after the newest entry: this instance delivers what is appended from now on.
   * Resolves once it knows where that is (it asks again until Redis answers).
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    while (!this.closed) {
      try {
        const newest = (await this.reader.xrevrange(this.key, '+', '-', 'COUNT', 1))[0];
        if (newest) this.lastPosition = newest[0];
        break;
      } catch (error) {
        this.noteDown((error as Error).message);
        await new Promise((resolve) => setTimeout(resolve, 250).unref());
      }
    }
    void this.readLoop();
  }

  append(envelope: EventEnvelope, { once, traceParent }: { once?: string; traceParent?: TraceParent } = {}): void {
    if (this.closed) return;
    const tracer = this.options.tracer;
    if (tracer === undefined) return this.appendNow(envelope, once);
    sendTraced(
      tracer,
      this.key,
      envelope,
      traceParent,
      (traced) => this.appendNow(traced, once),
      (error) => this.lost(envelope, (error as Error)?.message),
    );
  }

  private appendNow(unstamped: EventEnvelope, once?: string): void {
    const envelope = copyWith(unstamped, { routing: copyWith(unstamped.routing, { sequence: ++this.sequence }) });
    let text: string;
    try {
      text = JSON.stringify(envelope);
    } catch (error) {
      return this.lost(envelope, `its data is not serialisable (${(error as Error).message})`);
    }
    const maxBytes = this.options.maxEnvelopeBytes ?? 1_000_000;
    if (text.length > maxBytes)
      return this.lost(envelope, `envelope over the size limit (${text.length} > ${maxBytes})`);
    // Written at once, in the order appended (one connection keeps it): what this instance did
    // before answering a call is in the log before anything caused by that answer.
    const dropped = this.appender.add({
      origin: envelope.routing.origin,
      sequence: envelope.routing.sequence,
      text,
      ...(once !== undefined ? { once } : {}),
    });
    if (dropped)
      this.lost(parseEnvelope(dropped.text) ?? envelope, `more than ${this.maxWaiting} events waiting for Redis`);
  }

  subscribe(handler: (event: LoggedEvent) => void): void {
    this.handlers.push(handler);
  }

  async since(after: string, through: string): Promise<LoggedEvent[] | undefined> {
    if (!isAfter(through, after)) return [];
    // Entries are trimmed from the oldest: when none after `after` was deleted, all are there.
    const info = await this.writer.call('XINFO', 'STREAM', this.key).catch(() => undefined);
    if (!Array.isArray(info)) return undefined;
    const deletedThrough = fieldOf(info, 'max-deleted-entry-id');
    if (typeof deletedThrough !== 'string' || isAfter(deletedThrough, after)) return undefined;
    const entries = await this.writer.xrange(this.key, `(${after}`, through);
    return entries.flatMap(([position, fields]) => {
      const envelope = parseEnvelope(fields[1] ?? '');
      return envelope ? [{ position, envelope }] : [];
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.appender.stop();
    // The reader may be blocked in XREAD: it is cut rather than waited for.
    this.reader.disconnect();
    await closeRedisClient(this.writer);
  }

  private async readLoop(): Promise<void> {
    while (!this.closed) {
      let reply: [string, [string, string[]][]][] | null;
      try {
        reply = (await this.reader.xread(
          'COUNT',
          READ_BATCH,
          'BLOCK',
          READ_BLOCK_MS,
          'STREAMS',
          this.key,
          this.lastPosition,
        )) as typeof reply;
      } catch (error) {
        if (this.closed) return;
        this.noteDown((error as Error).message);
        await new Promise((resolve) => setTimeout(resolve, 250).unref());
        continue;
      }
      for (const [, entries] of reply ?? []) {
        for (const [position, fields] of entries) {
          this.lastPosition = position;
          const envelope = parseEnvelope(fields[1] ?? '');
          if (!envelope) {
            this.options.logger.warn({ position }, 'ignoring a malformed entry of the event log');
            continue;
          }
          this.options.metrics?.busEvent('delivered');
          const tracer = this.options.tracer;
          if (tracer === undefined) this.deliver({ position, envelope });
          else
            deliverTraced(
              tracer,
              this.key,
              envelope,
              () => this.deliver({ position, envelope }),
              (error) =>
                this.options.logger.error(
                  { path: envelope.path, event: envelope.event, err: (error as Error)?.message },
                  'event log: delivering an event failed',
                ),
            );
        }
      }
    }
  }

  private deliver(event: LoggedEvent): void {
    for (const handler of this.handlers) handler(event);
  }

  private lost(envelope: EventEnvelope, reason: string): void {
    this.options.metrics?.busEvent('dropped');
    this.options.logger.error(
      { path: envelope.path, event: envelope.event, reason },
      'event lost for the other instances and for resuming clients',
    );
  }

  private noteDown(reason: string): void {
    if (this.down || this.closed) return;
    this.down = true;
    this.options.logger.warn(
      { reason },
      "event log (redis) unavailable: events reach this instance's clients at once and the others' when it is back",
    );
  }

  private noteUp(): void {
    if (!this.down) return;
    this.down = false;
    this.options.logger.info(
      'event log (redis) is back: waiting events written, events shared between instances again',
    );
  }
}

/** A field of a Redis reply given as a flat [name, value, ...] list. */
function fieldOf(reply: unknown[], name: string): unknown {
  for (let index = 0; index + 1 < reply.length; index += 2) if (reply[index] === name) return reply[index + 1];
  return undefined;
}
