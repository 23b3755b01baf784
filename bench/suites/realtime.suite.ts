import { io, type Socket } from 'socket.io-client';
import { alternateRounds } from '../lib/alternate';
import { againstScript } from '../lib/against-tree';
import { emptyResult, selected, type BenchContext, type Suite } from '../lib/bench-context';
import { measureCallRate, runCalls } from '../lib/call-loop';
import { CpuPerRequest } from '../lib/cpu-per-request';
import type { SuiteResult } from '../lib/results';
import { AT_REF, comparePairs, pairsWithFrameworkAtRef, type ScenarioPair } from '../lib/scenario-pairs';
import { startServer, type ServerProcess } from '../lib/server-process';
import { REALTIME_POLICY_ENV } from '../servers/server-protocol';

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
    socket.emit(frame[0] as string, ...frame.slice(1), (error: unknown, result: unknown) =>
      error ? reject(new Error(JSON.stringify(error))) : resolve(result),
    );
  });
}

/** One side of the fan-out benchmark: 500 listening sockets and a writer on one server. */
class FanOut {
  delivered = 0;
  private constructor(
    readonly server: ServerProcess,
    private readonly writer: Socket,
    private readonly listeners: Socket[],
  ) {
    for (const socket of listeners) socket.on('messages created', () => this.delivered++);
  }

  static async open(server: ServerProcess): Promise<FanOut> {
    const listeners: Socket[] = [];
    // In batches: 500 handshakes at once would measure the connection storm, not the events.
    for (let i = 0; i < LISTENERS; i += 50)
      listeners.push(...(await Promise.all(Array.from({ length: 50 }, () => connect(server.url)))));
    return new FanOut(server, await connect(server.url), listeners);
  }

  /** Creates for `seconds`, then waits (at most 10 s) for every event to arrive; delivered events per second. */
  async measure(seconds: number, cpu: CpuPerRequest): Promise<number> {
    const startDelivered = this.delivered;
    const cpuBefore = this.server.cpuMs();
    const started = performance.now();
    let n = 0;
    const { calls } = await runCalls(
      () => ackCall(this.writer, 'create', 'messages', { text: `event ${n++} ${'x'.repeat(80)}`, userId: n % 10 }, {}),
      { seconds, concurrency: IN_FLIGHT_CREATES },
    );
    const expected = startDelivered + calls * LISTENERS;
    const deadline = performance.now() + 10_000;
    while (this.delivered < expected && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const elapsed = (performance.now() - started) / 1000;
    const delivered = this.delivered - startDelivered;
    const cpuAfter = this.server.cpuMs();
    if (cpuBefore !== undefined && cpuAfter !== undefined && delivered > 0)
      cpu.add(this.server.label, ((cpuAfter - cpuBefore) * 1000) / delivered);
    if (delivered < calls * LISTENERS)
      throw new Error(`${this.server.label}: ${delivered} of ${calls * LISTENERS} events arrived`);
    return delivered / elapsed;
  }

  close(): void {
    this.writer.close();
    for (const socket of this.listeners) socket.close();
  }
}

/** One server of the suite, with the names the reports give it in each benchmark. */
interface RealtimeSide {
  key: string;
  server: ServerProcess;
  /** Name in the socket `get` rows and in the fan-out rows. */
  names: { get: string; fanOut: string };
  /** Its framework code is profiled with `--profile` (the baseline's is not). */
  profiled: boolean;
}

const BARE = 'socketio';
const FRAMEWORK = 'framework';
const WITH_POLICY = 'framework-policy';

/**
 * The scenario's pairs: the framework against bare socket.io; with `--against`, also this tree
 * against the framework at the ref and the ref against bare socket.io (recorded in `result.against`).
 */
function scenarioPairs(context: BenchContext, result: SuiteResult, pair: ScenarioPair): ScenarioPair[] {
  if (!context.against) return [pair];
  const atRef = pairsWithFrameworkAtRef({ id: pair.id, title: pair.title }, [pair], FRAMEWORK, context.against.ref);
  (result.against ??= []).push(atRef.against);
  return atRef.pairs;
}

/**
 * Real-time transport against bare socket.io doing the same work: socket `get` calls per second
 * (sequential and 20 in flight; baseline acks from a Map), and event fan-out to 500 sockets
 * (delivered events per second and server CPU per delivered event; baseline `io.emit`). With
 * `--against <ref>`, the framework at that commit runs in the same alternating rounds.
 */
export const realtimeSuite: Suite = {
  name: 'realtime',
  title: 'Real-time transport: socket.io + channels vs bare socket.io',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    const start = (label: string, script: string) =>
      startServer({ label, script, pinning: context.pinning, profileDir: context.profileDir });
    const sides: RealtimeSide[] = [];
    const opened: { close(): void }[] = [];
    try {
      sides.push({
        key: BARE,
        server: await start('socketio', context.scripts['socketio-server']),
        names: { get: 'bare socket.io', fanOut: 'bare socket.io io.emit' },
        profiled: false,
      });
      if (context.against) {
        const { ref } = context.against;
        sides.push({
          key: AT_REF,
          server: await start('framework-realtime-at-ref', againstScript(context.against, 'realtime-server')),
          names: { get: `framework at ${ref}`, fanOut: `framework channels at ${ref}` },
          profiled: true,
        });
      }
      sides.push({
        key: FRAMEWORK,
        server: await start('framework-realtime', context.scripts['realtime-server']),
        names: { get: 'framework', fanOut: 'framework channels' },
        profiled: true,
      });
      // The framework once more with a policy (issue 26): calls scoped and answered per caller, events in two views.
      sides.push({
        key: WITH_POLICY,
        server: await startServer({
          label: 'framework-realtime-policy',
          script: context.scripts['realtime-server'],
          env: { [REALTIME_POLICY_ENV]: 'two-roles' },
          pinning: context.pinning,
          profileDir: context.profileDir,
        }),
        names: { get: 'framework with a policy', fanOut: 'framework channels + policy (two roles)' },
        profiled: true,
      });
      const gets = await Promise.all(
        sides.map(async (side) => {
          const socket = await connect(side.server.url);
          opened.push({ close: () => socket.close() });
          return () => ackCall(socket, 'get', 'messages', 1, {});
        }),
      );
      for (const concurrency of [1, 20]) {
        const id = concurrency === 1 ? 'socket-get-sequential' : `socket-get-concurrent-${concurrency}`;
        if (!selected(context, id)) continue;
        const cpu = new CpuPerRequest();
        const measure = async (server: ServerProcess, call: () => Promise<unknown>) => {
          const before = server.cpuMs();
          const { perSecond, calls } = await runCalls(call, { seconds: context.duration, concurrency });
          const after = server.cpuMs();
          if (before !== undefined && after !== undefined && calls > 0)
            cpu.add(server.label, ((after - before) * 1000) / calls);
          return perSecond;
        };
        for (const get of gets) await measureCallRate(get, { seconds: context.warmup, concurrency });
        for (const side of sides) if (side.profiled) side.server.startProfiling();
        const values = await alternateRounds(
          id,
          sides.map((side, i) => ({ label: side.names.get, measure: () => measure(side.server, gets[i]) })),
          context.rounds,
          'calls/s',
          context.log,
        );
        const title = concurrency === 1 ? 'socket get, sequential' : `socket get, ${concurrency} in flight`;
        const pairs = [
          ...scenarioPairs(context, result, {
            id,
            title,
            baseline: BARE,
            candidate: FRAMEWORK,
            target: { op: '>=', value: 0.8 },
            cpu: true,
          }),
          {
            id: `${id}-policy-cost`,
            title: `${title}, with a policy vs without`,
            baseline: FRAMEWORK,
            candidate: WITH_POLICY,
            target: { op: '>=', value: 0.9 },
            cpu: true,
          },
        ] as ScenarioPair[];
        result.comparisons.push(
          ...comparePairs(
            sides.map((side, i) => ({
              key: side.key,
              name: side.names.get,
              values: values[i],
              cpuLabel: side.server.label,
            })),
            pairs,
            'calls/s',
            cpu,
          ),
        );
      }
      if (selected(context, 'fan-out')) {
        const fanOuts: FanOut[] = [];
        for (const side of sides) {
          const fanOut = await FanOut.open(side.server);
          opened.push(fanOut);
          fanOuts.push(fanOut);
        }
        const cpu = new CpuPerRequest();
        const warm = new CpuPerRequest();
        for (const fanOut of fanOuts) await fanOut.measure(context.warmup, warm);
        // Already running when the socket gets were measured in this run; started here when only the fan-out is.
        for (const side of sides) if (side.profiled) side.server.startProfiling();
        const id = 'fan-out-500';
        const values = await alternateRounds(
          id,
          sides.map((side, i) => ({
            label: side.names.fanOut,
            measure: () => fanOuts[i].measure(context.duration, cpu),
          })),
          context.rounds,
          'events/s',
          context.log,
        );
        const pairs = [
          ...scenarioPairs(context, result, {
            id,
            title: `event fan-out to ${LISTENERS} sockets`,
            baseline: BARE,
            candidate: FRAMEWORK,
            target: { op: '>=', value: 0.8 },
            cpu: true,
          }),
          {
            id: `${id}-policy`,
            title: `event fan-out to ${LISTENERS} sockets, a policy with two roles`,
            baseline: BARE,
            candidate: WITH_POLICY,
            target: { op: '>=', value: 0.8 },
            cpu: true,
          },
          {
            id: `${id}-policy-cost`,
            title: `event fan-out to ${LISTENERS} sockets, with a policy vs without`,
            baseline: FRAMEWORK,
            candidate: WITH_POLICY,
            cpu: true,
          },
        ] as ScenarioPair[];
        result.comparisons.push(
          ...comparePairs(
            sides.map((side, i) => ({
              key: side.key,
              name: side.names.fanOut,
              values: values[i],
              cpuLabel: side.server.label,
            })),
            pairs,
            'events/s',
            cpu,
            { what: 'server CPU per delivered event', unit: 'CPU µs/event' },
          ),
        );
      }
    } finally {
      for (const item of opened) item.close();
      await Promise.all(sides.map((side) => side.server.stop()));
    }
    return result;
  },
};
