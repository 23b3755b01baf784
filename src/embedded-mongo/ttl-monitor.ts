import type { Document } from 'bson';
import type { EmbeddedMongoLogger } from './base/logger';
import { isBsonNumber, numberValue } from './query/bson-numbers';
import type { ServerParameters } from './commands/server-parameters';
import type { Catalog } from './storage/catalog';

/** How often the monitor looks whether a pass is due: `ttlMonitorSleepSecs` changes take effect within it. */
const TICK_MS = 1_000;

export interface TtlMonitorSettings {
  readonly catalog: Catalog;
  readonly parameters: ServerParameters;
  /** Runs a command as a client's would be (journaled, published to change streams); resolves once durable. */
  readonly run: (command: Document, db: string) => Promise<Document>;
  readonly logger: EmbeddedMongoLogger;
}

/**
 * mongod's TTL monitor: every `ttlMonitorSleepSecs` (60 by default; `setParameter` may change it,
 * and `ttlMonitorEnabled: false` stops it), the documents whose TTL-indexed field holds a date (or
 * an array with a date) at least `expireAfterSeconds` old are deleted, within the index's partial
 * filter. The deletes go through the server's own `delete` command, so they are journaled and
 * change streams see them, as mongod's are. Time-series collections' own expiry is not done.
 */
export class TtlMonitor {
  private readonly timer: ReturnType<typeof setInterval>;
  private lastPass = Date.now();
  private running = false;

  constructor(private readonly settings: TtlMonitorSettings) {
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    const { parameters } = this.settings;
    const sleepMs = Number(parameters.get('ttlMonitorSleepSecs')) * 1000;
    if (this.running || parameters.get('ttlMonitorEnabled') !== true || Date.now() - this.lastPass < sleepMs) return;
    this.running = true;
    try {
      await this.pass();
    } catch (error) {
      // A pass cut short (the server closing, a failed journal write) is tried again at the next one.
      this.settings.logger.warn('TTL monitor: a pass failed', { error: (error as Error).message });
    } finally {
      this.lastPass = Date.now();
      this.running = false;
    }
  }

  /** One pass over every TTL index, one `delete` per index. */
  private async pass(): Promise<void> {
    const { catalog, run, logger } = this.settings;
    for (const db of catalog.databaseNames()) {
      for (const name of catalog.collectionNames(db)) {
        for (const index of catalog.getCollection(db, name)?.indexes() ?? []) {
          const filter = expiredFilter(index, Date.now());
          if (filter === undefined) continue;
          const reply = await run({ delete: name, deletes: [{ q: filter, limit: 0 }], $db: db }, db);
          if (reply.ok !== 1)
            logger.warn('TTL monitor: a delete failed', {
              namespace: `${db}.${name}`,
              index: index.name,
              error: reply.errmsg,
            });
          else if (Number(reply.n) > 0)
            logger.info('TTL monitor: deleted expired documents', {
              namespace: `${db}.${name}`,
              index: index.name,
              deleted: reply.n,
            });
        }
      }
    }
  }
}

/**
 * What a TTL index has expired by `now`: a date `$lt` the cutoff matches dates only (BSON type
 * order) and, in an array, any element, which is mongod's rule of the earliest date.
 */
function expiredFilter(index: Document, now: number): Document | undefined {
  const seconds = index.expireAfterSeconds;
  const fields = Object.keys(index.key as Document);
  if (!isBsonNumber(seconds) || fields.length !== 1) return undefined;
  const expired = { [fields[0]]: { $lt: new Date(now - numberValue(seconds) * 1000) } };
  const partial = index.partialFilterExpression as Document | undefined;
  return partial === undefined ? expired : { $and: [expired, partial] };
}
