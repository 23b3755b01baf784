import { runInNewContext } from 'node:vm';
import { createAbortGuard } from '../../../../src/adapters/rest-client/abort-guard';
import { abortError, timeoutError, transportError } from '../../../../src/adapters/rest-client/request-errors';
import { Timeout, Unavailable } from '../../../../src/domain/errors';

describe('transportError', () => {
  it('turns an unreachable server into Unavailable', () => {
    const nodeFetch = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 }),
    });
    const error = transportError(nodeFetch);
    expect(error).toBeInstanceOf(Unavailable);
    expect((error as any).data).toEqual({ code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 });
    expect(transportError(new TypeError('Failed to fetch'))).toBeInstanceOf(Unavailable);
    expect(transportError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBeInstanceOf(Unavailable);
  });

  it('recognises errors from another realm (Node internals under jest, iframes)', () => {
    const foreign = runInNewContext('new TypeError("fetch failed")');
    expect(foreign instanceof Error).toBe(false);
    expect(transportError(foreign)).toBeInstanceOf(Unavailable);
  });

  it('leaves other failures unchanged', () => {
    const error = new TypeError('Failed to parse URL from /x');
    expect(transportError(error)).toBe(error);
  });
});

describe('abort and timeout errors', () => {
  it('say what happened', () => {
    expect(abortError()).toMatchObject({ name: 'AbortError', message: expect.stringContaining('aborted') });
    expect(timeoutError(50)).toBeInstanceOf(Timeout);
    expect(timeoutError(50).message).toContain('50 ms');
  });
});

describe('createAbortGuard', () => {
  it('has no signal without a caller signal or timeout', () => {
    const guard = createAbortGuard(undefined, undefined);
    expect(guard.signal).toBeUndefined();
    expect(guard.failure()).toBeUndefined();
  });

  it('reports an abort by the caller', () => {
    const controller = new AbortController();
    const guard = createAbortGuard(controller.signal, 10_000);
    controller.abort();
    expect(guard.signal?.aborted).toBe(true);
    expect(guard.failure()?.name).toBe('AbortError');
    guard.dispose();
  });

  it('reports an already aborted caller signal', () => {
    const guard = createAbortGuard(AbortSignal.abort(), undefined);
    expect(guard.signal?.aborted).toBe(true);
    expect(guard.failure()?.name).toBe('AbortError');
  });

  it('reports a timeout', async () => {
    const guard = createAbortGuard(undefined, 1);
    await new Promise<void>((resolve) => guard.signal!.addEventListener('abort', () => resolve()));
    expect(guard.failure()).toBeInstanceOf(Timeout);
    guard.dispose();
  });
});
