import { redactRequestTarget } from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import { ulid } from '../ids.js';
import type { RequestLogRecord, RequestLogStore } from '../storage/request-logs.js';

/** Longest path and query kept in the log; longer ones are cut. */
const MAX_TARGET = 2048;

/** One answered request as the hook hands it over; the URL is redacted later, off the request's path. */
export interface ObservedRequest {
  method: string;
  url: string;
  status: number;
  durationMs: number;
  keyId: string | null;
  userId: string | null;
  clusterId: string | null;
  ip: string;
  userAgent: string | null;
  requestId: string;
  bytesIn: number;
  bytesOut: number;
  at: number;
}

/**
 * Writes the request log in batches, off the request's path, as `UsageRecorder` writes keys' usage: a request only
 * appends to a buffer, written in one transaction at most every 200 ms or every 1000 entries, one write at a time.
 * Ids are made and URLs redacted when the buffer is written. `close()` writes what is left. A failed write is
 * logged and its entries dropped: the log must never fail a request.
 */
export class RequestLogRecorder {
  private buffer: ObservedRequest[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: RequestLogStore,
    private readonly log: FastifyBaseLogger,
    private readonly flushIntervalMs = 200,
    private readonly maxBuffered = 1000,
  ) {}

  /** Buffers one answered request. */
  record(request: ObservedRequest): void {
    this.buffer.push(request);
    if (this.buffer.length >= this.maxBuffered) {
      void this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Entries waiting to be written. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Writes everything buffered so far; resolves when it (and every earlier write) is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return this.writing;
    const observed = this.buffer;
    this.buffer = [];
    this.writing = this.writing.then(() => {
      const records = observed.map(toRecord);
      return this.store.append(records).catch((error: unknown) => {
        this.log.error({ err: error, entries: records.length }, 'writing the request log failed');
      });
    });
    return this.writing;
  }

  /** Writes what is left; call before the storage closes. */
  close(): Promise<void> {
    return this.flush();
  }
}

function toRecord(r: ObservedRequest): RequestLogRecord {
  const target = redactRequestTarget(r.url);
  return {
    id: `rl_${ulid(r.at)}`,
    at: r.at,
    method: r.method,
    path: target.length > MAX_TARGET ? target.slice(0, MAX_TARGET) : target,
    status: r.status,
    durationMs: Math.round(r.durationMs * 1000) / 1000,
    keyId: r.keyId,
    userId: r.userId,
    clusterId: r.clusterId,
    ip: r.ip,
    userAgent: r.userAgent,
    requestId: r.requestId,
  };
}
