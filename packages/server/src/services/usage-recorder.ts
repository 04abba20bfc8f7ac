import type { FastifyBaseLogger } from 'fastify';
import type { KeyUsageStore, UsageRecord } from '../storage/types.js';

/** How often and how much the recorder writes. */
export interface UsageRecorderOptions {
  /** Longest time an entry waits in the buffer, in milliseconds (default 100). */
  flushIntervalMs?: number;
  /** A buffer this full is written at once (default 1000). */
  maxBuffered?: number;
}

/**
 * Writes the usage history of API keys in batches, off the request's path: a request only appends to a buffer;
 * the buffer is written in one transaction (with each key's `lastUsedAt`) at most every 100 ms or every 1000
 * entries, one write at a time. `close()` writes what is left, so a graceful shutdown loses nothing; a crash loses
 * at most the last interval. A failed write is logged and its batch dropped: history must never fail a request.
 */
export class UsageRecorder {
  private buffer: UsageRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushIntervalMs: number;
  private readonly maxBuffered: number;

  constructor(
    private readonly store: KeyUsageStore,
    private readonly log: FastifyBaseLogger,
    options: UsageRecorderOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 100;
    this.maxBuffered = options.maxBuffered ?? 1000;
  }

  /** Buffers one entry. */
  record(entry: UsageRecord): void {
    this.buffer.push(entry);
    if (this.buffer.length >= this.maxBuffered) {
      void this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Writes everything buffered so far; resolves when it (and every earlier batch) is written. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    if (batch.length === 0) return this.writing;
    this.buffer = [];
    this.writing = this.writing.then(() =>
      this.store.record(batch).catch((error: unknown) => {
        this.log.error({ err: error, entries: batch.length }, 'writing the usage history of API keys failed');
      }),
    );
    return this.writing;
  }

  /** Writes what is left; call before the storage closes. */
  close(): Promise<void> {
    return this.flush();
  }
}
