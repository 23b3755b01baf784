import type { Document } from 'bson';
import type { EmbeddedMongoLogger } from '../base/logger';
import type { Catalog } from '../storage/catalog';
import type { StorageEngine } from '../storage/storage-engine';
import { ChangeHistory, type HistoryLimits } from './change-history';
import { ChangeRecorder, type CommitContext } from './change-recorder';
import type { ChangeStreamSpec } from './change-stream-spec';
import { ChangeStreamCursor } from './change-stream-cursor';
import { ClusterClock } from './cluster-clock';
import { historyEntry, horizonEntry, readHistoryEntries } from './history-entries';
import { readLegacyHistory, removeLegacyHistory } from './legacy-history-folder';
import { MAX_OP_INDEX } from './stream-position';

export interface HubSettings {
  /** The data folder, where an earlier version may have left the history in a folder of its own. */
  readonly dataDir?: string;
  readonly limits?: HistoryLimits;
  readonly logger: EmbeddedMongoLogger;
}

/**
 * The replica set's change machinery in one place: the cluster clock, the bounded history of
 * committed changes (kept by the storage engine with the data when it persists anything), the
 * recorder that feeds it from the catalog, and the streams that read it.
 */
export class ChangeStreamHub {
  private constructor(
    readonly clock: ClusterClock,
    private readonly history: ChangeHistory,
    private readonly recorder: ChangeRecorder,
    private readonly catalog: Catalog,
    /** The engine keeps the history: each command's records go to it with the command's writes. */
    private readonly persistent: boolean,
  ) {}

  /** Loads the window the engine kept, then records every change the catalog reports. */
  static async open(catalog: Catalog, engine: StorageEngine, settings: HubSettings): Promise<ChangeStreamHub> {
    const clock = new ClusterClock();
    const legacy =
      engine.keepHistory && settings.dataDir ? await readLegacyHistory(settings.dataDir, settings.logger) : undefined;
    // From here to the history's creation nothing waits: a snapshot, which asks for the window, cannot come in between.
    const recovered = engine.keepHistory?.(() => windowOf(history));
    const migrating = recovered?.length === 0 && legacy !== undefined;
    const loaded = readHistoryEntries(migrating ? legacy! : (recovered ?? []));
    const latest = loaded.records[loaded.records.length - 1]?.clusterTime;
    if (loaded.horizon) clock.advancePast(loaded.horizon.clusterTime);
    if (latest) clock.advancePast(latest);
    // Without saved history, nothing before this start can be resumed from.
    const history = new ChangeHistory(
      settings.limits ?? {},
      loaded.horizon ?? { clusterTime: clock.current(), txnOpIndex: MAX_OP_INDEX },
    );
    history.append(loaded.records);
    // A new window (or one taken over from an earlier version's folder) is on disk before any write.
    if (recovered && (!loaded.horizon || migrating)) await engine.commit(windowOf(history));
    if (legacy) await removeLegacyHistory(settings.dataDir!);
    return new ChangeStreamHub(clock, history, new ChangeRecorder(catalog, clock), catalog, recovered !== undefined);
  }

  /** The command that just ran wrote something. */
  get hasPendingChanges(): boolean {
    return this.recorder.hasPending;
  }

  /**
   * Publishes the changes of the command that just ran. Returns, when the engine keeps the
   * history, its entries for the engine's commit of the command: the reply waits for that
   * write, so a resume token a client holds survives a crash.
   */
  commitCommand(context: CommitContext = {}): Document[] | undefined {
    if (!this.recorder.hasPending) return undefined;
    const records = this.recorder.take(context);
    if (records.length === 0) return undefined;
    this.history.append(records);
    return this.persistent ? records.map(historyEntry) : undefined;
  }

  /** The writes of the command that just ran were undone (a failed commit): no changes. */
  discardCommand(): void {
    this.recorder.discard();
  }

  openStream(spec: ChangeStreamSpec): ChangeStreamCursor {
    return new ChangeStreamCursor(this.history, this.clock, spec, (db, coll, id) =>
      this.catalog.getCollection(db, coll)?.getById(id),
    );
  }

  /** Resolves on the next published change or after `timeoutMs`. */
  waitForChange(timeoutMs: number): Promise<void> {
    return this.history.waitForChange(timeoutMs);
  }

  /** Wakes waiting readers; the engine's last snapshot, after this, holds the window. */
  close(): void {
    this.history.wakeAll();
  }
}

/** The window as the engine keeps it: where it starts, then its records. */
function windowOf(history: ChangeHistory): Document[] {
  return [horizonEntry(history.horizon), ...history.retained().map(historyEntry)];
}
