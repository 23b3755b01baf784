import { Unavailable } from '../../../src/domain/errors';
import { WaitingSlots } from '../../../src/composition/waiting-slots';

describe('WaitingSlots', () => {
  afterEach(() => jest.useRealTimers());

  it('grants up to its size at once, then hands each slot given back to the longest waiter', async () => {
    const slots = new WaitingSlots(2, 1_000);
    const first = await slots.acquire();
    await slots.acquire();
    const order: string[] = [];
    const third = slots.acquire().then((release) => (order.push('third'), release));
    const fourth = slots.acquire().then(() => order.push('fourth'));
    expect(slots.usage).toEqual({ busy: 2, waiting: 2 });
    first();
    first(); // giving a slot back twice gives it back once
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    expect(slots.usage).toEqual({ busy: 2, waiting: 1 });
    releaseThird();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
  });

  it('fails a waiter with Unavailable after the timeout, and the slot goes to the next one', async () => {
    jest.useFakeTimers();
    const slots = new WaitingSlots(1, 500);
    const held = await slots.acquire();
    const late = slots.acquire();
    const rejected = expect(late).rejects.toThrow(new Unavailable('No connection to the remote server came free within 500 ms (all 1 in use)'));
    jest.advanceTimersByTime(500);
    await rejected;
    const next = slots.acquire();
    held();
    await expect(next).resolves.toEqual(expect.any(Function));
    expect(slots.usage).toEqual({ busy: 1, waiting: 0 });
  });

  it('lets a waiter whose caller aborts leave the queue with the abort reason', async () => {
    const slots = new WaitingSlots(1, 10_000);
    const held = await slots.acquire();
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    controller.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
    held();
    expect(slots.usage).toEqual({ busy: 0, waiting: 0 });
    await expect(slots.acquire(controller.signal)).rejects.toThrow('caller gave up');
  });
});
