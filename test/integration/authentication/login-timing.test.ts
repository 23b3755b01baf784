import request from 'supertest';
import { listenHttp, type ListeningHttpServer } from '../../../src/adapters/http';
import type { ComposedApplication } from '../../../src/composition-root';
import { givenAuthApp, PASSWORD, signUp } from './auth-test-app';

const TRIES = 15;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe('login timing', () => {
  let composed: ComposedApplication;
  let server: ListeningHttpServer;
  let url: string;

  beforeAll(async () => {
    // A cost where the difference would show (scrypt N = 2^14: 40+ ms a compare, against 0.5 ms for a lookup).
    composed = await givenAuthApp({ passwordHashCost: 14, rateLimit: false });
    await signUp(request(composed.http), 'ann@example.com');
    server = await listenHttp(composed.http);
    url = `${server.url}/authentication`;
  });
  afterAll(async () => {
    await server.close();
    await composed.close();
  });

  const timeLogin = async (email: string): Promise<number> => {
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ strategy: 'local', email, password: `not-${PASSWORD}` }),
    });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    expect(response.status).toBe(401);
    return elapsed;
  };

  it('takes a similar time for an unknown user and a wrong password (medians within 25%)', async () => {
    await timeLogin('ann@example.com');
    await timeLogin('nobody@example.com');
    const unknown: number[] = [];
    const wrong: number[] = [];
    // Interleaved, so drift of the machine's load affects both series alike.
    for (let attempt = 0; attempt < TRIES; attempt++) {
      unknown.push(await timeLogin(`nobody${attempt}@example.com`));
      wrong.push(await timeLogin('ann@example.com'));
    }
    const [a, b] = [median(unknown), median(wrong)];
    expect(Math.abs(a - b) / Math.max(a, b)).toBeLessThanOrEqual(0.25);
    // The comparison is meaningful only if hashing dominates the request.
    expect(Math.min(a, b)).toBeGreaterThan(5);
  });
});
