import type { Worker } from 'node:worker_threads';
import { LINE_BLOCK_BYTES } from '../../services/backup-lines.js';
import { startScriptWorker } from '../../worker-script.js';
import type { DocumentLineBlock, SnapshotCollection, SnapshotDocument, SnapshotReader } from '../backups.js';
import type { NextLines } from './snapshot-reads.js';

/** What a snapshot's thread is started with. */
export interface SnapshotThreadData {
  file: string;
  clusterId: string;
}

/** What a snapshot's thread is asked. */
type SnapshotQuery =
  | { op: 'collections' }
  | { op: 'documents'; collection: string; afterId: string; limit: number }
  | { op: 'lines'; collection: string; collectionJson: string; spare?: ArrayBuffer };

/** A query with its id; a thread answers its requests in the order sent. */
export type SnapshotRequest = SnapshotQuery & { id: number };

/** What a thread answers a query with. */
export type SnapshotValue = SnapshotCollection[] | SnapshotDocument[] | NextLines;

/** A thread's answer to the request of the same id. */
export type SnapshotAnswer =
  | { id: number; value: SnapshotValue; error?: undefined }
  | { id: number; error: string; value?: undefined };

type Waiting = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/**
 * Blocks of lines asked for ahead of the one being written: the thread goes on making blocks while the caller
 * hashes the last ones and waits for their compression (two ahead left the thread idle a fifth of the time).
 */
const LINES_AHEAD = 4;

/**
 * Blocks kept to be filled again: about as many as are asked for ahead and being compressed. A megabyte allocated
 * per block (external memory to V8) made the thread's garbage collector run most of the time.
 */
const MAX_SPARES = 8;

/** One snapshot of a SQLite database file read on a thread of its own (`snapshot-worker.ts`). */
export class SnapshotThread {
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  /** Blocks written and given back, which the thread fills again rather than allocating new ones. */
  private readonly spares: ArrayBuffer[] = [];
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiter of this.waiting.values()) waiter.reject(this.failure);
      this.waiting.clear();
    };
    worker.on('message', (answer: SnapshotAnswer | { ready: true }) => {
      if (!('id' in answer)) return;
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (answer.error !== undefined) waiter?.reject(new Error(answer.error));
      else waiter?.resolve(answer.value);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the snapshot's thread exited with code ${code}`)));
  }

  /** Starts the thread; resolves once its read transaction holds the snapshot. */
  static async open(data: SnapshotThreadData): Promise<SnapshotThread> {
    const worker = await startScriptWorker(
      new URL('./sqlite-snapshot-worker.js', import.meta.url),
      new URL('./snapshot-worker.ts', import.meta.url),
      { workerData: data, native: ['better-sqlite3'] },
    );
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the snapshot's thread exited with code ${code}`)));
    });
    return new SnapshotThread(worker);
  }

  /** Reads of the snapshot. */
  reader(): SnapshotReader {
    return {
      collections: () => this.ask<SnapshotCollection[]>({ op: 'collections' }),
      documents: (collection, afterId, limit) =>
        this.ask<SnapshotDocument[]>({ op: 'documents', collection, afterId, limit }),
      documentLineBlocks: (collection, collectionJson) => this.lineBlocks(collection, collectionJson),
    };
  }

  /** Ends the thread, and with it the read transaction. */
  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private async *lineBlocks(collection: string, collectionJson: string): AsyncGenerator<DocumentLineBlock> {
    const ask = () => {
      const spare = this.spares.pop();
      return this.ask<NextLines>({ op: 'lines', collection, collectionJson, spare }, spare && [spare]);
    };
    const ahead = Array.from({ length: LINES_AHEAD }, ask);
    try {
      for (;;) {
        const { bytes, count, done } = await ahead.shift()!;
        // A block comes over as the thread's bytes, without a copy, and goes back to it once written.
        const block = bytes.buffer as ArrayBuffer;
        const release = () => {
          if (block.byteLength === LINE_BLOCK_BYTES && this.spares.length < MAX_SPARES)
            this.spares.push(block);
        };
        if (count > 0)
          yield { bytes: Buffer.from(block, bytes.byteOffset, bytes.byteLength), count, release };
        if (done) return;
        ahead.push(ask());
      }
    } finally {
      // Answers still coming (empty after the last block) are not waited for; a failed one is not an error here.
      for (const pending of ahead) pending.catch(() => {});
    }
  }

  private ask<T>(query: SnapshotQuery, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...query, id } satisfies SnapshotRequest, transfer);
    });
  }
}
