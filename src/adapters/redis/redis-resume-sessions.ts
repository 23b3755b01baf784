import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ResumeSessionsPort } from '../../ports/resume-sessions.port';
import { closeRedisClient, createRedisClient } from './redis-connection';

export interface RedisResumeSessionsOptions {
  url: string;
  /**
   * The application's secret (`AUTH_SECRET`), shared by its instances: the key the states are sealed with derives from
   * it.
   */
  secret: string | Promise<string>;
  /** Key prefix. Default 'hexa-services:resume:'. */
  prefix?: string;
}

/**
 * Dropped connections' states in Redis, each under its own key with the window as its expiry,
 * sealed with AES-256-GCM: a state holds the connection's credential, which must not be
 * readable by whoever reads Redis (nor be altered there unnoticed). Taken with GETDEL, once.
 */
export class RedisResumeSessions implements ResumeSessionsPort {
  private readonly client: Redis;
  private readonly key: Promise<Buffer>;
  private readonly prefix: string;

  constructor(options: RedisResumeSessionsOptions) {
    this.client = createRedisClient(options.url);
    this.client.on('error', () => undefined);
    this.prefix = options.prefix ?? 'hexa-services:resume:';
    this.key = Promise.resolve(options.secret).then((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'hexa-services', 'resume sessions', 32)),
    );
    // Used (and its failure reported) at the first keep or take.
    this.key.catch(() => undefined);
  }

  async keep(sessionId: string, state: Record<string, unknown>, ttlMs: number): Promise<void> {
    await this.client.set(
      this.prefix + sessionId,
      this.seal(await this.key, JSON.stringify(state)),
      'PX',
      Math.max(1, Math.round(ttlMs)),
    );
  }

  async take(sessionId: string): Promise<Record<string, unknown> | undefined> {
    const sealed = await this.client.getdel(this.prefix + sessionId);
    if (sealed === null) return undefined;
    const text = this.open(await this.key, sealed);
    if (text === undefined) return undefined;
    const state = JSON.parse(text) as unknown;
    return typeof state === 'object' && state !== null && !Array.isArray(state)
      ? (state as Record<string, unknown>)
      : undefined;
  }

  close(): Promise<void> {
    return closeRedisClient(this.client);
  }

  private seal(key: Buffer, text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** The sealed text, or undefined when it was not sealed with this key or was altered. */
  private open(key: Buffer, sealed: string): string | undefined {
    const bytes = Buffer.from(sealed, 'base64');
    if (bytes.length < 28) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
