import { Redis } from 'ioredis';
import { RedisEventLog, type RedisEventLogOptions } from '../../../src/adapters/redis';
import type { EventEnvelope } from '../../../src/ports/event-bus.port';
import type { LoggedEvent } from '../../../src/ports/event-log.port';
import { describeWithRedis, startRedis, type RedisProcess } from '../../helpers/redis-server';
import { waitFor } from '../../helpers/socket-clients';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const envelope = (n: number): EventEnvelope => ({
  event: 'created',
  path: 'messages',
  data: { n },
  routing: { origin: 'test', service: 'messages' },
});
const numbers = (events: readonly LoggedEvent[]) => events.map(({ envelope: { data } }) => (data as { n: number }).n);

/**
 * The event log on a real redis-server: order, what a client that comes back is given (all or
 * nothing), one entry per identity.
 */
describeWithRedis('RedisEventLog', () => {
  let redis: RedisProcess;
  let raw: Redis;
  const logs: RedisEventLog[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis(redis.url);
  });
  afterAll(async () => {
    for (const log of logs) await log.close();
    await raw?.quit();
    await redis?.kill();
  });

  async function started(
    key: string,
    options: Partial<RedisEventLogOptions> = {},
  ): Promise<{ log: RedisEventLog; heard: LoggedEvent[] }> {
    const log = new RedisEventLog({ url: redis.url, logger: silent, keepMs: 60_000, key, ...options });
    logs.push(log);
    const heard: LoggedEvent[] = [];
    log.subscribe((event) => heard.push(event));
    await log.start();
    await waitFor(() => log.reachable, 'the log to be reachable');
    return { log, heard };
  }

  it('delivers what every instance appends, its own included, in one order with increasing positions', async () => {
    const first = await started('log:order');
    const second = await started('log:order');
    for (let n = 0; n < 20; n += 1) (n % 2 === 0 ? first : second).log.append(envelope(n));
    await waitFor(() => first.heard.length === 20 && second.heard.length === 20, 'twenty on both');
    expect(numbers(first.heard)).toEqual(numbers(second.heard));
    expect(first.heard.map(({ position }) => position)).toEqual(second.heard.map(({ position }) => position));
    expect(first.log.position).toBe(first.heard[19].position);
  });

  it('gives what came after a position, through another, and nothing at all once one of them is gone', async () => {
    const { log, heard } = await started('log:since');
    for (let n = 0; n < 10; n += 1) log.append(envelope(n));
    await waitFor(() => heard.length === 10, 'ten');
    expect(numbers((await log.since(heard[2].position, heard[6].position))!)).toEqual([3, 4, 5, 6]);
    expect(await log.since(heard[9].position, heard[9].position)).toEqual([]);
    // An entry before the client's position may go; one after it may not.
    await raw.xdel('log:since', heard[1].position);
    expect(numbers((await log.since(heard[2].position, heard[9].position))!)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    await raw.xdel('log:since', heard[5].position);
    expect(await log.since(heard[2].position, heard[9].position)).toBeUndefined();
  });

  it('appends an event of a given identity once, whichever instance claims it first', async () => {
    const first = await started('log:once');
    const second = await started('log:once');
    for (const { log } of [first, second]) {
      log.append(envelope(1), { once: 'from-a-1' });
      log.append(envelope(2), { once: 'from-a-2' });
    }
    await waitFor(() => first.heard.length >= 2, 'the two');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(numbers(first.heard)).toEqual([1, 2]);
    expect(await raw.xlen('log:once')).toBe(2);
  });

  it('keeps what is appended while Redis is down and writes it, in order and once, when it is back', async () => {
    const { log, heard } = await started('log:outage');
    log.append(envelope(0));
    await waitFor(() => heard.length === 1, 'the first');
    await redis.kill();
    await waitFor(() => !log.reachable, 'the log to notice');
    for (let n = 1; n <= 5; n += 1) log.append(envelope(n));
    await redis.restart();
    await waitFor(() => heard.length === 6, 'the five written after the outage', 15_000);
    expect(numbers(heard)).toEqual([0, 1, 2, 3, 4, 5]);
    await waitFor(() => log.reachable, 'the log to be reachable again');
  }, 30_000);

  it(
    'keeps at most maxWaiting envelopes while Redis is down, ' + 'reporting each one it drops (the oldest) as lost',
    async () => {
      const lost: unknown[] = [];
      const logger = { ...silent, error: (fields: unknown) => lost.push(fields) };
      const { log, heard } = await started('log:overflow', { maxWaiting: 3, logger });
      log.append(envelope(0));
      await waitFor(() => heard.length === 1, 'the first');
      await redis.kill();
      await waitFor(() => !log.reachable, 'the log to notice');
      for (let n = 1; n <= 5; n += 1) log.append(envelope(n));
      expect(lost).toEqual([
        { path: 'messages', event: 'created', reason: 'more than 3 events waiting for Redis' },
        { path: 'messages', event: 'created', reason: 'more than 3 events waiting for Redis' },
      ]);
      await redis.restart();
      await waitFor(() => heard.length === 4, 'the three kept', 15_000);
      expect(numbers(heard)).toEqual([0, 3, 4, 5]);
    },
    30_000,
  );
});
