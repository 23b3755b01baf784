import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { AUTH_SECRET_FILE, resolveAuthSecret } from '../../../src/composition/auth-secret';
import { composeApplication } from '../../../src/composition-root';
import { loadConfig } from '../../../src/composition/load-config';
import { PASSWORD } from './auth-test-app';

describe('the token secret', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'auth-secret-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('is AUTH_SECRET when set', async () => {
    await expect(resolveAuthSecret({ authSecret: 's'.repeat(32), nodeEnv: 'production', dataDir })).resolves.toBe(
      's'.repeat(32),
    );
  });

  it('is required in production', async () => {
    await expect(resolveAuthSecret({ nodeEnv: 'production', dataDir })).rejects.toThrow('AUTH_SECRET');
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('AUTH_SECRET');
  });

  it('is random per process with DATA_DIR :memory:', async () => {
    const first = await resolveAuthSecret({ nodeEnv: 'development', dataDir: ':memory:' });
    const second = await resolveAuthSecret({ nodeEnv: 'development', dataDir: ':memory:' });
    expect(Buffer.byteLength(first)).toBeGreaterThanOrEqual(32);
    expect(first).not.toBe(second);
  });

  it('is generated once in development and kept in DATA_DIR (owner-only), also under concurrent starts', async () => {
    const nested = path.join(dataDir, 'deeper');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => resolveAuthSecret({ nodeEnv: 'development', dataDir: nested })),
    );
    expect(new Set(results).size).toBe(1);
    const file = path.join(nested, AUTH_SECRET_FILE);
    expect((await readFile(file, 'utf8')).trim()).toBe(results[0]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await expect(resolveAuthSecret({ nodeEnv: 'development', dataDir: nested })).resolves.toBe(results[0]);
  });

  it('refuses a secret file that is too short', async () => {
    await writeFile(path.join(dataDir, AUTH_SECRET_FILE), 'short\n');
    await expect(resolveAuthSecret({ nodeEnv: 'development', dataDir })).rejects.toThrow('at least 32 bytes');
  });

  it('keeps tokens valid across restarts in development', async () => {
    const config = loadConfig({ NODE_ENV: 'development', STORE: 'memory', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const options = { authentication: { passwordHashCost: 10, rateLimit: false as const } };
    const first = await composeApplication(config, options);
    let token: string;
    try {
      const agent = request(first.http);
      await agent.post('/users').send({ email: 'ann@example.com', password: PASSWORD }).expect(201);
      token = (
        await agent
          .post('/authentication')
          .send({ strategy: 'local', email: 'ann@example.com', password: PASSWORD })
          .expect(201)
      ).body.accessToken;
    } finally {
      await first.close();
    }
    const second = await composeApplication(config, options);
    try {
      // The memory store starts empty: put ann and her session back under the ids her token names.
      const { sub, sid } = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
      await second.app
        .lookup('users')!
        .original._create({ _id: sub, email: 'ann@example.com', password: 'irrelevant-here' });
      const now = new Date();
      await second.app.lookup('sessions')!.original._create({
        _id: sid,
        userId: sub,
        refreshTokenHash: '',
        rotatedTokenHashes: [],
        createdAt: now,
        lastUsedAt: now,
        expiresAt: new Date(now.getTime() + 60_000),
      });
      await request(second.http).get('/messages').set('Authorization', `Bearer ${token}`).expect(200);
    } finally {
      await second.close();
    }
  });
});
