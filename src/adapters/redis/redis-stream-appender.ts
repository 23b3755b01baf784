import type { Redis } from 'ioredis';
import type { MetricsPort } from '../../ports/metrics.port';
import { parseEnvelope } from './parse-envelope';

/** An envelope to append: its text, and who stamped it in which order. */
export interface StreamItem {
  readonly origin: string;
  readonly sequence: number;
  readonly text: string;
  /** Written only if no instance wrote an envelope of this identity within the window. */
  readonly once?: string;
}

export interface RedisStreamAppenderOptions {
  /** The stream's key. */
  readonly key: string;
  /** How long entries are kept (trimmed by age on every append). */
  readonly keepMs: number;
  /** Entries kept at most, whatever their age (trimmed now and then). */
  readonly maxEvents: number;
  /** Items that may wait for Redis; past it the oldest is dropped (and returned by `add`). */
  readonly maxWaiting: number;
  /** How many waiting items one pipelined write sends. */
  readonly batchSize: number;
  readonly metrics?: MetricsPort;
  /** A write failed: Redis is taken as down until one succeeds. */
  readonly onDown: (reason: string) => void;
  /** A write succeeded. */
  readonly onUp: () => void;
}

/** XADD unless the identity (KEYS[2]) was claimed within the window: one atomic step for every instance. */
const APPEND_ONCE = `if redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[1]) then
  return redis.call('XADD', KEYS[1], 'MINID', '~', ARGV[2], '*', 'e', ARGV[3])
end
return false`;

/**
 * Appends to a Redis Stream in the order items are added, across outages: an item is written at
 * once while Redis is there; otherwise it waits in memory (bounded) and what waited is written, in
 * order and in pipelined batches, when the connection is ready again. A write cut by a broken
 * connection may have landed: before writing again, the stream's newest entries are read and what
 * they hold (by origin and sequence) is not written twice.
 */
export class RedisStreamAppender {
  private readonly waiting: StreamItem[] = [];
  /** Some writes failed in flight: they may have been written before the connection broke. */
  private unsure = false;
  private flushing = false;
  private stopped = false;
  private appendsSinceTrim = 0;

  /** `writer` must not resend unfulfilled commands itself (`autoResendUnfulfilledCommands: false`). */
  constructor(
    private readonly writer: Redis,
    private readonly options: RedisStreamAppenderOptions,
  ) {
    writer.on('ready', () => this.flush());
  }

  /**
   * Appends `item` after everything added before it; returns the oldest waiting item if it had to be dropped to stay
   * within `maxWaiting`.
   */
  add(item: StreamItem): StreamItem | undefined {
    if (this.stopped) return undefined;
    if (this.waiting.length === 0 && this.writer.status === 'ready') {
      this.write(item);
      return undefined;
    }
    this.waiting.push(item);
    const dropped = this.waiting.length > this.options.maxWaiting ? this.waiting.shift() : undefined;
    this.flush();
    return dropped;
  }

  /** Writes nothing more (what still waits is given up). */
  stop(): void {
    this.stopped = true;
  }

  private write(item: StreamItem): void {
    this.trimNowAndThen();
    this.appendCommand(item).then(
      () => {
        this.options.metrics?.busEvent('published');
        this.options.onUp();
      },
      (error: Error) => {
        // Perhaps written, perhaps not: it waits, in order, and the flush looks before writing it again.
        this.unsure = true;
        this.waiting.push(item);
        this.waiting.sort((a, b) => a.sequence - b.sequence);
        this.options.onDown(error.message);
      },
    );
  }

  private appendCommand(item: StreamItem): Promise<unknown> {
    const { key, keepMs } = this.options;
    if (item.once === undefined) return this.writer.xadd(key, 'MINID', '~', this.oldestKept(), '*', 'e', item.text);
    return this.writer.eval(APPEND_ONCE, 2, key, this.onceKey(item.once), keepMs, this.oldestKept(), item.text);
  }

  private onceKey(identity: string): string {
    return `${this.options.key}:once:${identity}`;
  }

  private oldestKept(): string {
    return String(Math.max(0, Date.now() - this.options.keepMs));
  }

  /** Trimming by age alone would let a burst grow the stream without bound: by count too, now and then. */
  private trimNowAndThen(count = 1): void {
    this.appendsSinceTrim += count;
    if (this.appendsSinceTrim < 1_000) return;
    this.appendsSinceTrim = 0;
    this.writer.xtrim(this.options.key, 'MAXLEN', '~', this.options.maxEvents).catch(() => undefined);
  }

  /** Writes what waited for Redis, in order, in pipelined batches; stops at the first failure. */
  private flush(): void {
    if (this.flushing || this.stopped || this.waiting.length === 0 || this.writer.status !== 'ready') return;
    this.flushing = true;
    if (this.unsure) {
      this.dropWritten().then(
        () => {
          this.flushing = false;
          this.flush();
        },
        (error: Error) => {
          this.flushing = false;
          this.options.onDown(error.message);
        },
      );
      return;
    }
    const { key, keepMs } = this.options;
    const batch = this.waiting.slice(0, this.options.batchSize);
    const oldest = this.oldestKept();
    const pipeline = this.writer.pipeline();
    for (const item of batch) {
      if (item.once === undefined) pipeline.xadd(key, 'MINID', '~', oldest, '*', 'e', item.text);
      else pipeline.eval(APPEND_ONCE, 2, key, this.onceKey(item.once), keepMs, oldest, item.text);
    }
    this.trimNowAndThen(batch.length);
    pipeline.exec().then(
      (results) => {
        const written = (results ?? []).slice(0, batch.length).findIndex(([error]) => error !== null);
        const count = written < 0 ? batch.length : written;
        this.waiting.splice(0, count);
        for (let n = 0; n < count; n++) this.options.metrics?.busEvent('published');
        this.flushing = false;
        if (count < batch.length) return this.options.onDown('a write to the event log failed');
        this.options.onUp();
        this.flush();
      },
      (error: Error) => {
        this.flushing = false;
        this.options.onDown(error.message);
      },
    );
  }

  /** Drops from the waiting items those the stream's newest entries show were written after all. */
  private async dropWritten(): Promise<void> {
    const newest = await this.writer.xrevrange(this.options.key, '+', '-', 'COUNT', 2 * this.waiting.length + 100);
    const origin = this.waiting[0]?.origin;
    const written = new Set<number>();
    for (const [, fields] of newest) {
      const routing = parseEnvelope(fields[1] ?? '')?.routing;
      if (routing?.origin === origin && routing.sequence !== undefined) written.add(routing.sequence);
    }
    this.unsure = false;
    for (let index = this.waiting.length - 1; index >= 0; index -= 1)
      if (written.has(this.waiting[index].sequence)) this.waiting.splice(index, 1);
  }
}
