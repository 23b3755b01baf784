import type { EventEnvelope } from './event-bus.port';
import type { TraceParent } from './tracer.port';

/** An envelope with its place in the log, the same on every instance. */
export interface LoggedEvent {
  /** Increasing along the log; what a client names to resume after it. */
  readonly position: string;
  readonly envelope: EventEnvelope;
}

/**
 * The service events of every instance in one order, kept for a while (Redis Streams, ...):
 * each instance delivers them in that order, its own included, and a client that comes back
 * to any instance is given what it missed from it.
 */
export interface EventLogPort {
  /** False while the log cannot be written: the publisher then delivers its own events itself, at once. */
  readonly reachable: boolean;
  /** The newest position this instance has delivered (where a new connection starts). */
  readonly position: string;
  /**
   * Appends, never throws nor waits. While the log is unreachable the envelope waits, in order,
   * for its return (bounded: past the bound it is reported lost, never dropped silently). With
   * `once`, an identity of the event, it is appended only if no instance appended that identity
   * within the window (each instance hears the same event from another server); `traceParent`:
   * the span of the call that caused it, when traced.
   */
  append(envelope: EventEnvelope, options?: { once?: string; traceParent?: TraceParent }): void;
  /** Every appended envelope, this instance's own included, in log order, once. */
  subscribe(handler: (event: LoggedEvent) => void): void;
  /** The envelopes after `after` up to `through`, in order; undefined when some of them are no longer kept. */
  since(after: string, through: string): Promise<LoggedEvent[] | undefined>;
  close(): Promise<void>;
}

/** Whether log position `a` comes after `b` (positions are `<milliseconds>-<sequence>`). */
export function isAfter(a: string, b: string): boolean {
  const [aTime, aSequence] = splitPosition(a);
  const [bTime, bSequence] = splitPosition(b);
  return aTime > bTime || (aTime === bTime && aSequence > bSequence);
}

function splitPosition(position: string): [number, number] {
  const dash = position.indexOf('-');
  return dash < 0 ? [Number(position), 0] : [Number(position.slice(0, dash)), Number(position.slice(dash + 1))];
}
