import { ConcurrencyLimit } from '../../../../src/application/concurrency/concurrency-limit';
import { Unavailable } from '../../../../src/domain/errors';

/** As the password hasher uses it: a bounded queue, 503 past it. */
const limitWithQueue = (size: number, maxWaiting: number) =>
  new ConcurrencyLimit({
    size,
    maxWaiting,
    refusal: () => new Unavailable('The server is busy checking passwords, try again shortly'),
  });

/** As a remote binding's connection pool uses it: each caller waits at most `waitTimeoutMs`. */
const limitWithTimeout = (size: number, waitTimeoutMs: number) =>
  new ConcurrencyLimit({
    size,
    waitTimeoutMs,
    refusal: () =>
      new Unavailable(`No connection to the remote server came free within ${waitTimeoutMs} ms (all ${size} in use)`),
  });

/** A task that runs until the test settles it, recording when it started. */
function controllable(started: number[], id: number) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<number>((resolve, reject) => {
    finish = () => resolve(id);
    fail = reject;
  });
  return {
    task: () => {
      started.push(id);
      return done;
    },
    finish: () => finish(),
    fail: (error: Error) => fail(error),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit with a bounded queue (password hashing)', () => {
  it('runs at most `concurrency` tasks at once, the others in arrival order', async () => {
    const limiter = limitWithQueue(2, 10);
    const started: number[] = [];
    const tasks = [0, 1, 2, 3, 4].map((id) => controllable(started, id));
    const results = tasks.map((task) => limiter.run(task.task));
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limiter.usage).toEqual({ running: 2, waiting: 3 });
    tasks[1].finish();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    tasks[0].fail(new Error('boom'));
    await expect(results[0]).rejects.toThrow('boom');
    await tick();
    // A failed task frees its slot too.
    expect(started).toEqual([0, 1, 2, 3]);
    for (const task of tasks.slice(2)) task.finish();
    await expect(Promise.all(results.slice(1))).resolves.toEqual([1, 2, 3, 4]);
    expect(limiter.usage).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a task past the queue limit with 503, without running it', async () => {
    const limiter = limitWithQueue(1, 1);
    const started: number[] = [];
    const [first, second, third] = [0, 1, 2].map((id) => controllable(started, id));
    const running = limiter.run(first.task);
    const queued = limiter.run(second.task);
    await expect(limiter.run(third.task)).rejects.toMatchObject({ name: 'Unavailable', code: 503 });
    first.finish();
    second.finish();
    await expect(Promise.all([running, queued])).resolves.toEqual([0, 1]);
    expect(started).toEqual([0, 1]);
  });

  it('refuses settings that would not limit anything', () => {
    expect(() => limitWithQueue(0, 1)).toThrow('concurrency');
    expect(() => limitWithQueue(1.5, 1)).toThrow('concurrency');
    expect(() => limitWithQueue(1, -1)).toThrow('queue limit');
  });
});

describe('ConcurrencyLimit with a wait timeout (remote connections)', () => {
  afterEach(() => jest.useRealTimers());

  it('grants up to its size at once, then hands each slot given back to the longest waiter', async () => {
    const slots = limitWithTimeout(2, 1_000);
    const first = await slots.acquire();
    await slots.acquire();
    const order: string[] = [];
    const third = slots.acquire().then((release) => (order.push('third'), release));
    const fourth = slots.acquire().then(() => order.push('fourth'));
    expect(slots.usage).toEqual({ running: 2, waiting: 2 });
    first();
    first(); // giving a slot back twice gives it back once
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    expect(slots.usage).toEqual({ running: 2, waiting: 1 });
    releaseThird();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
  });

  it('fails a waiter with Unavailable after the timeout, and the slot goes to the next one', async () => {
    jest.useFakeTimers();
    const slots = limitWithTimeout(1, 500);
    const held = await slots.acquire();
    const late = slots.acquire();
    const rejected = expect(late).rejects.toThrow(
      new Unavailable('No connection to the remote server came free within 500 ms (all 1 in use)'),
    );
    jest.advanceTimersByTime(500);
    await rejected;
    const next = slots.acquire();
    held();
    await expect(next).resolves.toEqual(expect.any(Function));
    expect(slots.usage).toEqual({ running: 1, waiting: 0 });
  });

  it('lets a waiter whose caller aborts leave the queue with the abort reason', async () => {
    const slots = limitWithTimeout(1, 10_000);
    const held = await slots.acquire();
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    controller.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
    held();
    expect(slots.usage).toEqual({ running: 0, waiting: 0 });
    await expect(slots.acquire(controller.signal)).rejects.toThrow('caller gave up');
  });
});
