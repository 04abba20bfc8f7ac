import type { FastifyBaseLogger } from 'fastify';
import type { KeyUsageStore, UsageRecord } from '../storage/usage.js';

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
 * at most the last interval. A failed write is logged and its entries dropped: history must never fail a request.
 *
 * The buffer is kept as columns rather than one object per request: what waits for the next write would otherwise
 * outlive the garbage collector's young generation and be copied on every request's account. Key ids, methods and
 * addresses are the same string objects from request to request, so only the paths are held per request.
 */
export class UsageRecorder {
  private keyIds: string[] = [];
  private methods: string[] = [];
  private paths: string[] = [];
  private statuses: number[] = [];
  private times: number[] = [];
  private ips: string[] = [];
  private agents: (string | null)[] = [];
  private lastAgent: string | null = null;
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

  /** Buffers one answered request. */
  record(
    keyId: string,
    method: string,
    path: string,
    status: number,
    ip: string,
    userAgent: string | undefined,
  ): void {
    // One copy of a user agent that repeats, instead of one string per request.
    let agent = userAgent ?? null;
    if (agent === this.lastAgent) agent = this.lastAgent;
    else this.lastAgent = agent;
    this.keyIds.push(keyId);
    this.methods.push(method);
    this.paths.push(path);
    this.statuses.push(status);
    this.times.push(Date.now());
    this.ips.push(ip);
    this.agents.push(agent);
    if (this.keyIds.length >= this.maxBuffered) {
      void this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Writes everything buffered so far; resolves when it (and every earlier write) is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.keyIds.length === 0) return this.writing;
    const records = this.drain();
    this.writing = this.writing.then(() =>
      this.store.record(records).catch((error: unknown) => {
        this.log.error(
          { err: error, entries: records.length },
          'writing the usage history of API keys failed',
        );
      }),
    );
    return this.writing;
  }

  /** Writes what is left; call before the storage closes. */
  close(): Promise<void> {
    return this.flush();
  }

  private drain(): UsageRecord[] {
    const { keyIds, methods, paths, statuses, times, ips, agents } = this;
    this.keyIds = [];
    this.methods = [];
    this.paths = [];
    this.statuses = [];
    this.times = [];
    this.ips = [];
    this.agents = [];
    return keyIds.map((keyId, i) => ({
      keyId,
      method: methods[i]!,
      path: paths[i]!,
      status: statuses[i]!,
      at: times[i]!,
      ip: ips[i]!,
      userAgent: agents[i]!,
    }));
  }
}
