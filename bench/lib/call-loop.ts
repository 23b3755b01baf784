export interface CallLoopOptions {
  /** How long to keep calling. */
  seconds: number;
  /** Callers running side by side (1 = sequential). */
  concurrency: number;
}

/**
 * Calls `call` back to back from `concurrency` async loops for about `seconds` and returns
 * completed calls per second. Bounded in time: loops stop starting calls when the time is up.
 */
export async function measureCallRate(call: () => Promise<unknown>, options: CallLoopOptions): Promise<number> {
  return (await runCalls(call, options)).perSecond;
}

/** Calls per second and the number of calls made. */
export async function runCalls(
  call: () => Promise<unknown>,
  options: CallLoopOptions,
): Promise<{ perSecond: number; calls: number }> {
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  let calls = 0;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      await call();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  return { perSecond: calls / ((performance.now() - started) / 1000), calls };
}

/** Milliseconds per call, sequentially, over about `seconds` (at least `minCalls` calls). */
export async function measureCallTime(call: () => Promise<unknown>, seconds: number, minCalls = 5): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let calls = 0;
  while (calls < minCalls || performance.now() < deadline) {
    await call();
    calls++;
  }
  return (performance.now() - started) / calls;
}
