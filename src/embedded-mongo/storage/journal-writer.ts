import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { journalFileName, syncDirectory } from './journal-files';

/**
 * O_DSYNC: each write returns only once the data (and the size needed to read it back) is on
 * disk, like write + fdatasync but in one system call, which halves the thread-pool round trips
 * per group commit. Where the flag does not exist (Windows), an explicit datasync follows.
 */
const DSYNC: number | undefined = constants.O_DSYNC;
const APPEND_DURABLY = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | (DSYNC ?? 0);

interface QueuedRecord {
  readonly bytes: Buffer;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

type QueueEntry = QueuedRecord | { readonly rotateTo: number };

/**
 * Appends framed records to the current journal file with GROUP COMMIT: while one durable write
 * is in flight, later records queue up, and the next round writes all of them at once (one
 * write, one flush to disk), then resolves every waiter. A failed write leaves an unknown tail in
 * the file, so the writer refuses everything after it rather than append past garbage.
 */
export class JournalWriter {
  private queue: QueueEntry[] = [];
  private draining?: Promise<void>;
  private file?: FileHandle;
  private failure?: Error;

  constructor(
    private readonly dataDir: string,
    /** The generation new records go to. */
    private generation: number,
  ) {}

  get failed(): boolean {
    return this.failure !== undefined;
  }

  append(bytes: Buffer): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ bytes, resolve, reject });
      this.kick();
    });
  }

  /** Later records go to a new file; returns the generation that holds every earlier one. */
  rotate(): number {
    const previous = this.generation;
    this.generation++;
    this.queue.push({ rotateTo: this.generation });
    this.kick();
    return previous;
  }

  /** Resolves once everything appended so far is written (or has failed). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.file?.close();
    this.file = undefined;
  }

  private kick(): void {
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if ('rotateTo' in head) {
        this.queue.shift();
        await this.file?.close();
        this.file = undefined;
        continue;
      }
      const end = this.queue.findIndex((entry) => 'rotateTo' in entry);
      const batch = this.queue.splice(0, end < 0 ? this.queue.length : end) as QueuedRecord[];
      try {
        await this.writeDurably(
          batch.length === 1 ? batch[0].bytes : Buffer.concat(batch.map((record) => record.bytes)),
        );
        for (const record of batch) record.resolve();
      } catch (error) {
        this.fail(error as Error, batch);
      }
    }
  }

  private async writeDurably(bytes: Buffer): Promise<void> {
    const file = this.file ?? (await this.openCurrent());
    for (let offset = 0; offset < bytes.length;) {
      const { bytesWritten } = await file.write(bytes, offset, bytes.length - offset);
      offset += bytesWritten;
    }
    if (DSYNC === undefined) await file.datasync();
  }

  /** Opens the file of the generation at the head of the queue (the one before any pending rotation). */
  private async openCurrent(): Promise<FileHandle> {
    const pendingRotations = this.queue.filter((entry) => 'rotateTo' in entry).length;
    const file = path.join(this.dataDir, journalFileName(this.generation - pendingRotations));
    this.file = await fs.open(file, APPEND_DURABLY);
    await syncDirectory(this.dataDir);
    return this.file;
  }

  private fail(error: Error, batch: QueuedRecord[]): void {
    this.failure = new Error(`journal write failed, the server no longer accepts writes: ${error.message}`);
    const waiting = [...batch, ...(this.queue.filter((entry) => !('rotateTo' in entry)) as QueuedRecord[])];
    this.queue = [];
    for (const record of waiting) record.reject(this.failure);
  }
}
