/** How long, and how much, each instance keeps of the events it sent, for clients that come back. */
export interface ResumeWindowOptions {
  /** How long a client may be away and still resume (`EVENTS_RESUME_WINDOW_MS`). */
  readonly windowMs: number;
  /** Events kept per connection; a connection that missed more does not resume. */
  readonly maxEventsPerConnection: number;
  /** Bytes of event payloads (as JSON) kept in all; past it the oldest are dropped. */
  readonly maxBytes: number;
}

/**
 * An event frame as socket.io writes it: the event name, its payload and its offset (none for an event no client can
 * resume from).
 */
export type EventPacket = [eventName: string, data: unknown, offset?: string];

/** One event sent to some connections: kept while any of them may still need it. */
interface KeptEvent {
  readonly packet: EventPacket;
  readonly offset: number;
  readonly at: number;
  readonly bytes: number;
  /** How many connections' histories hold it. */
  refs: number;
  /** Dropped for its age or the byte limit: histories still holding it drop it when next touched. */
  dropped: boolean;
}

/** What a connection's history holds: the events sent to it, and whether some were dropped. */
interface History {
  readonly events: KeptEvent[];
  /** The highest offset dropped from `events`: a client that has not seen it cannot resume. */
  droppedThrough: number;
}

/**
 * The events each connection was sent recently, by socket.io's private session id (`pid`): what a
 * client that reconnects within the window and names the last offset it received gets again,
 * in order, once; or, when some of what it missed is no longer kept (too old, too many, too many
 * bytes), nothing: it is told it did not recover and starts afresh, never with a partial history.
 * Offsets are this instance's, increasing with every event it sends.
 */
export class ResumeWindow {
  private lastOffset = 0;
  private readonly histories = new Map<string, History>();
  /** Every kept event, oldest first: what time and the byte limit drop from. */
  private readonly kept: KeptEvent[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    readonly options: ResumeWindowOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** The offset of the next event sent. */
  nextOffset(): string {
    this.lastOffset += 1;
    return String(this.lastOffset);
  }

  /** The newest offset sent, for a client that has received nothing yet to start from. */
  currentOffset(): string {
    return String(this.lastOffset);
  }

  /** Keeps one event sent (or due) to the connections of `pids`; `bytes` is its payload's size. */
  record(packet: EventPacket, pids: readonly string[], bytes: number): void {
    if (pids.length === 0) return;
    const event: KeptEvent = { packet, offset: Number(packet[2]), at: this.now(), bytes, refs: 0, dropped: false };
    for (const pid of pids) {
      let history = this.histories.get(pid);
      if (!history) this.histories.set(pid, (history = { events: [], droppedThrough: 0 }));
      this.pruneDropped(history);
      history.events.push(event);
      event.refs += 1;
      if (history.events.length > this.options.maxEventsPerConnection) this.dropOldestOf(history);
    }
    if (event.refs === 0) return;
    this.kept.push(event);
    this.bytes += bytes;
    this.trim();
  }

  /**
   * The events sent to `pid` after `offset`, or undefined when the client cannot resume: no
   * history (unknown, or forgotten), or some event after `offset` was dropped.
   */
  missedSince(pid: string, offset: string): EventPacket[] | undefined {
    this.trim();
    const history = this.histories.get(pid);
    const since = Number(offset);
    if (history) this.pruneDropped(history);
    if (!history || !Number.isSafeInteger(since) || since < history.droppedThrough) return undefined;
    return history.events.filter((event) => event.offset > since).map((event) => event.packet);
  }

  /** Whether anything was ever sent to `pid` (until it is forgotten): a connection without a history missed nothing. */
  hasHistory(pid: string): boolean {
    return this.histories.has(pid);
  }

  /** The connection is gone for good: its history goes. */
  forget(pid: string): void {
    const history = this.histories.get(pid);
    if (!history) return;
    this.histories.delete(pid);
    for (const event of history.events) if (!event.dropped) this.release(event);
  }

  /** Events and bytes kept now, for the bench's report of the window's memory. */
  size(): { events: number; bytes: number; connections: number } {
    return { events: this.kept.length - this.head, bytes: this.bytes, connections: this.histories.size };
  }

  /** Drops, oldest first, what is older than the window or over the byte limit. */
  private trim(): void {
    const oldest = this.now() - this.options.windowMs;
    while (this.head < this.kept.length) {
      const event = this.kept[this.head];
      if (event.refs > 0 && event.at >= oldest && this.bytes <= this.options.maxBytes) break;
      this.head += 1;
      if (event.refs > 0) this.dropEverywhere(event);
    }
    // Compact now and then, not on every drop.
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept.splice(0, this.head);
      this.head = 0;
    }
  }

  /** No history holds it from now on (each drops it when next touched: it is their oldest). */
  private dropEverywhere(event: KeptEvent): void {
    event.dropped = true;
    this.bytes -= event.bytes;
    event.refs = 0;
  }

  /** The events dropped everywhere leave the head of `history`, which then cannot resume before them. */
  private pruneDropped(history: History): void {
    let count = 0;
    while (count < history.events.length && history.events[count].dropped) count += 1;
    if (count === 0) return;
    history.droppedThrough = Math.max(history.droppedThrough, history.events[count - 1].offset);
    history.events.splice(0, count);
  }

  private dropOldestOf(history: History): void {
    const dropped = history.events.shift();
    if (!dropped) return;
    history.droppedThrough = Math.max(history.droppedThrough, dropped.offset);
    if (!dropped.dropped) this.release(dropped);
  }

  private release(event: KeptEvent): void {
    event.refs -= 1;
    if (event.refs === 0) this.bytes -= event.bytes;
  }
}
