import { CallBudget } from '../../../../src/adapters/socketio/call-budget';

describe('CallBudget', () => {
  const limits = { maxCallsInFlight: 2, maxRefusedCalls: 3, refusalWindowMs: 1_000 };

  it('runs calls up to the limit, refuses beyond it, and runs again once a call has its answer', () => {
    const budget = new CallBudget(limits, () => 0);
    expect([budget.admit(), budget.admit(), budget.admit()]).toEqual(['run', 'run', 'refuse']);
    budget.settle();
    expect(budget.admit()).toBe('run');
  });

  it('counts as flooding only past the refusals allowed within one window', () => {
    let now = 10_000;
    const budget = new CallBudget(limits, () => now);
    budget.admit();
    budget.admit();
    expect([budget.admit(), budget.admit(), budget.admit(), budget.admit()]).toEqual([
      'refuse',
      'refuse',
      'refuse',
      'flooding',
    ]);
    now += 1_001; // a new window: the count starts again
    expect([budget.admit(), budget.admit(), budget.admit(), budget.admit()]).toEqual([
      'refuse',
      'refuse',
      'refuse',
      'flooding',
    ]);
    expect(budget.refusedInWindow).toBe(4);
  });

  it('never counts below zero running calls', () => {
    const budget = new CallBudget({ ...limits, maxCallsInFlight: 1 }, () => 0);
    budget.settle();
    expect([budget.admit(), budget.admit()]).toEqual(['run', 'refuse']);
  });
});
