import { HashingLimiter } from '../../../../src/adapters/passport/hashing-limiter';

/** A task that runs until the test settles it, recording when it started. */
function controllable(started: number[], id: number) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<number>((resolve, reject) => {
    finish = () => resolve(id);
    fail = reject;
  });
  return { task: () => { started.push(id); return done; }, finish: () => finish(), fail: (error: Error) => fail(error) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('HashingLimiter', () => {
  it('runs at most `concurrency` tasks at once, the others in arrival order', async () => {
    const limiter = new HashingLimiter({ concurrency: 2, queueLimit: 10 });
    const started: number[] = [];
    const tasks = [0, 1, 2, 3, 4].map((id) => controllable(started, id));
    const results = tasks.map((task) => limiter.run(task.task));
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limiter.load).toEqual({ running: 2, waiting: 3 });
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
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a task past the queue limit with 503, without running it', async () => {
    const limiter = new HashingLimiter({ concurrency: 1, queueLimit: 1 });
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
    expect(() => new HashingLimiter({ concurrency: 0, queueLimit: 1 })).toThrow('concurrency');
    expect(() => new HashingLimiter({ concurrency: 1.5, queueLimit: 1 })).toThrow('concurrency');
    expect(() => new HashingLimiter({ concurrency: 1, queueLimit: -1 })).toThrow('queue limit');
  });
});
