import type { EmbeddedMongoLogger } from '../base/logger';
import type { Catalog } from '../storage/catalog';
import { ChangeHistory, type HistoryLimits } from './change-history';
import { ChangeRecorder, type CommitContext } from './change-recorder';
import type { ChangeStreamSpec } from './change-stream-spec';
import { ChangeStreamCursor } from './change-stream-cursor';
import { ClusterClock } from './cluster-clock';
import { HistoryFile } from './history-file';
import { MAX_OP_INDEX } from './stream-position';

/**
 * The replica set's change machinery in one place: the cluster clock, the bounded history of
 * committed changes (persisted beside the data when there is a dataDir), the recorder that feeds
 * it from the catalog, and the streams that read it.
 */
export class ChangeStreamHub {
  private constructor(
    readonly clock: ClusterClock,
    private readonly history: ChangeHistory,
    private readonly recorder: ChangeRecorder,
    private readonly catalog: Catalog,
    private readonly file?: HistoryFile,
  ) {}

  /** Loads the persisted window (with a dataDir), then records every change the catalog reports. */
  static async open(catalog: Catalog, settings: { dataDir?: string; limits?: HistoryLimits; logger: EmbeddedMongoLogger }): Promise<ChangeStreamHub> {
    const clock = new ClusterClock();
    const opened = settings.dataDir ? await HistoryFile.open(settings.dataDir, settings.logger) : undefined;
    const loaded = opened?.loaded.records ?? [];
    const latest = loaded[loaded.length - 1]?.clusterTime;
    if (opened?.loaded.horizon) clock.advancePast(opened.loaded.horizon.clusterTime);
    if (latest) clock.advancePast(latest);
    // Without saved history, nothing before this start can be resumed from.
    const horizon = opened?.loaded.horizon ?? { clusterTime: clock.current(), txnOpIndex: MAX_OP_INDEX };
    const history = new ChangeHistory(settings.limits ?? {}, horizon);
    history.append(loaded);
    await opened?.file.compact(history.horizon, history.retained());
    return new ChangeStreamHub(clock, history, new ChangeRecorder(catalog, clock), catalog, opened?.file);
  }

  /**
   * Publishes the changes of the command that just ran; resolves when they are on disk (the reply
   * waits for that, so a resume token a client holds survives a crash).
   */
  commitCommand(context: CommitContext = {}): Promise<void> | undefined {
    if (!this.recorder.hasPending) return undefined;
    const records = this.recorder.take(context);
    if (records.length === 0) return undefined;
    this.history.append(records);
    if (!this.file) return undefined;
    const durable = this.file.append(records);
    if (this.file.needsCompaction(this.history.bytes)) void this.file.compact(this.history.horizon, this.history.retained());
    return durable;
  }

  /** The writes of the command that just ran were undone (a failed commit): no changes. */
  discardCommand(): void {
    this.recorder.discard();
  }

  openStream(spec: ChangeStreamSpec): ChangeStreamCursor {
    return new ChangeStreamCursor(this.history, this.clock, spec, (db, coll, id) => this.catalog.getCollection(db, coll)?.getById(id));
  }

  /** Resolves on the next published change or after `timeoutMs`. */
  waitForChange(timeoutMs: number): Promise<void> {
    return this.history.waitForChange(timeoutMs);
  }

  async close(): Promise<void> {
    this.history.wakeAll();
    if (!this.file) return;
    await this.file.compact(this.history.horizon, this.history.retained());
    await this.file.close();
  }
}
