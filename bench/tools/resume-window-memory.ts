/**
 * The memory the events-resume window holds (issue 27): records events in a ResumeWindow as the
 * socket transport does (one kept event per send, shared by the connections it went to) and
 * reports the retained heap per 1,000 events, for one connection per event (a user's own view)
 * and for events shared by 100 connections (a channel's view). Run with `--expose-gc`:
 *
 *   node --expose-gc -r @swc-node/register bench/tools/resume-window-memory.ts
 */
import { ResumeWindow } from '../../src/adapters/socketio/resume-window';

const EVENTS = 20_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function retainedBytes(fill: (window: ResumeWindow) => void): number {
  gc!();
  const before = process.memoryUsage().heapUsed;
  const window = new ResumeWindow({ windowMs: 120_000, maxEventsPerConnection: 1_000_000, maxBytes: 1024 ** 3 });
  fill(window);
  gc!();
  const after = process.memoryUsage().heapUsed;
  if (window.size().events === 0) throw new Error('nothing kept');
  return after - before;
}

/** A message event as the fan-out bench sends it (text of about 100 characters). */
function message(n: number): Record<string, unknown> {
  return { id: n, text: `event ${n} ${'x'.repeat(80)}`, userId: n % 10 };
}

for (const [label, connections] of [['one connection per event', 1], ['100 connections per event', 100]] as const) {
  const pids = Array.from({ length: connections }, (_, index) => `socket-${index}`);
  const bytes = retainedBytes((window) => {
    for (let n = 0; n < EVENTS; n += 1) {
      const data = message(n);
      window.record(['messages created', data, window.nextOffset()], connections === 1 ? [pids[n % pids.length]] : pids, JSON.stringify(data).length);
    }
  });
  console.log(`${label}: ${((bytes / EVENTS) * 1000 / 1024).toFixed(0)} KiB retained per 1,000 events (${(bytes / 1024 / 1024).toFixed(1)} MiB for ${EVENTS.toLocaleString('en')})`);
}
