import { io, type Socket } from 'socket.io-client';
import { alternate } from '../lib/alternate';
import { emptyResult, selected, type BenchContext, type Suite } from '../lib/bench-context';
import { measureCallRate, runCalls } from '../lib/call-loop';
import { CpuPerRequest } from '../lib/cpu-per-request';
import { startServer, type ServerProcess } from '../lib/server-process';

const LISTENERS = 500;
const IN_FLIGHT_CREATES = 4;

function connect(url: string): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

function ackCall(socket: Socket, ...frame: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    socket.emit(frame[0] as string, ...frame.slice(1), (error: unknown, result: unknown) => (error ? reject(new Error(JSON.stringify(error))) : resolve(result)));
  });
}

/** One side of the fan-out benchmark: 500 listening sockets and a writer on one server. */
class FanOut {
  delivered = 0;
  private constructor(readonly server: ServerProcess, private readonly writer: Socket, private readonly listeners: Socket[]) {
    for (const socket of listeners) socket.on('messages created', () => this.delivered++);
  }

  static async open(server: ServerProcess): Promise<FanOut> {
    const listeners: Socket[] = [];
    // In batches: 500 handshakes at once would measure the connection storm, not the events.
    for (let i = 0; i < LISTENERS; i += 50) listeners.push(...(await Promise.all(Array.from({ length: 50 }, () => connect(server.url)))));
    return new FanOut(server, await connect(server.url), listeners);
  }

  /** Creates for `seconds`, then waits (at most 10 s) for every event to arrive; delivered events per second. */
  async measure(seconds: number, cpu: CpuPerRequest): Promise<number> {
    const startDelivered = this.delivered;
    const cpuBefore = this.server.cpuMs();
    const started = performance.now();
    let n = 0;
    const { calls } = await runCalls(() => ackCall(this.writer, 'create', 'messages', { text: `event ${n++} ${'x'.repeat(80)}`, userId: n % 10 }, {}), { seconds, concurrency: IN_FLIGHT_CREATES });
    const expected = startDelivered + calls * LISTENERS;
    const deadline = performance.now() + 10_000;
    while (this.delivered < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    const elapsed = (performance.now() - started) / 1000;
    const delivered = this.delivered - startDelivered;
    const cpuAfter = this.server.cpuMs();
    if (cpuBefore !== undefined && cpuAfter !== undefined && delivered > 0) cpu.add(this.server.label, ((cpuAfter - cpuBefore) * 1000) / delivered);
    if (delivered < calls * LISTENERS) throw new Error(`${this.server.label}: ${delivered} of ${calls * LISTENERS} events arrived`);
    return delivered / elapsed;
  }

  close(): void {
    this.writer.close();
    for (const socket of this.listeners) socket.close();
  }
}

/**
 * Real-time transport against bare socket.io doing the same work: socket `get` calls per second
 * (sequential and 20 in flight; baseline acks from a Map), and event fan-out to 500 sockets
 * (delivered events per second and server CPU per delivered event; baseline `io.emit`).
 */
export const realtimeSuite: Suite = {
  name: 'realtime',
  title: 'Real-time transport: socket.io + channels vs bare socket.io',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    const start = (label: string, script: string) => startServer({ label, script, pinning: context.pinning, profileDir: context.profileDir });
    const bare = await start('socketio', context.scripts['socketio-server']);
    const framework = await start('framework-realtime', context.scripts['realtime-server']);
    const opened: { close(): void }[] = [];
    try {
      const bareSocket = await connect(bare.url);
      const frameworkSocket = await connect(framework.url);
      opened.push({ close: () => bareSocket.close() }, { close: () => frameworkSocket.close() });
      const bareGet = () => ackCall(bareSocket, 'get', 'messages', 1, {});
      const frameworkGet = () => ackCall(frameworkSocket, 'get', 'messages', 1, {});
      for (const concurrency of [1, 20]) {
        const id = concurrency === 1 ? 'socket-get-sequential' : `socket-get-concurrent-${concurrency}`;
        if (!selected(context, id)) continue;
        const cpu = new CpuPerRequest();
        const measure = async (server: ServerProcess, call: () => Promise<unknown>) => {
          const before = server.cpuMs();
          const { perSecond, calls } = await runCalls(call, { seconds: context.duration, concurrency });
          const after = server.cpuMs();
          if (before !== undefined && after !== undefined && calls > 0) cpu.add(server.label, ((after - before) * 1000) / calls);
          return perSecond;
        };
        await measureCallRate(bareGet, { seconds: context.warmup, concurrency });
        await measureCallRate(frameworkGet, { seconds: context.warmup, concurrency });
        framework.startProfiling();
        const comparison = await alternate({
          id, title: concurrency === 1 ? 'socket get, sequential' : `socket get, ${concurrency} in flight`,
          baseline: { label: 'bare socket.io', measure: () => measure(bare, bareGet) },
          candidate: { label: 'framework', measure: () => measure(framework, frameworkGet) },
          unit: 'calls/s', rounds: context.rounds, target: { op: '>=', value: 0.8 }, log: context.log,
        });
        result.comparisons.push(comparison);
        const efficiency = cpu.comparison(comparison, bare, framework);
        if (efficiency) result.comparisons.push(efficiency);
      }
      if (selected(context, 'fan-out')) {
        const bareFanOut = await FanOut.open(bare);
        opened.push(bareFanOut);
        const frameworkFanOut = await FanOut.open(framework);
        opened.push(frameworkFanOut);
        const cpu = new CpuPerRequest();
        const warm = new CpuPerRequest();
        await bareFanOut.measure(context.warmup, warm);
        await frameworkFanOut.measure(context.warmup, warm);
        const comparison = await alternate({
          id: 'fan-out-500', title: `event fan-out to ${LISTENERS} sockets`,
          baseline: { label: 'bare socket.io io.emit', measure: () => bareFanOut.measure(context.duration, cpu) },
          candidate: { label: 'framework channels', measure: () => frameworkFanOut.measure(context.duration, cpu) },
          unit: 'events/s', rounds: context.rounds, target: { op: '>=', value: 0.8 }, log: context.log,
        });
        result.comparisons.push(comparison);
        const efficiency = cpu.comparison(comparison, bare, framework, 'server CPU per delivered event');
        if (efficiency) result.comparisons.push({ ...efficiency, unit: 'CPU µs/event' });
      }
    } finally {
      for (const item of opened) item.close();
      await Promise.all([bare.stop(), framework.stop()]);
    }
    return result;
  },
};
