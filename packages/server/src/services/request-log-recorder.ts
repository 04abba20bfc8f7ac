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
 * appends to a buffer, written in one transaction at most every 200 ms or every 256 entries, one write at a time.
 * Ids are made and URLs redacted when the buffer is written. `close()` writes what is left. A failed write is
 * logged and its entries dropped: the log must never fail a request.
 *
 * The buffer is kept as columns of plain values rather than one object per request, and kept short: what waits for
 * the next write would otherwise outlive the garbage collector's young generation and be copied on every request's
 * account. Methods, addresses, user agents and key ids repeat as the same string objects from request to request.
 */
export class RequestLogRecorder {
  private methods: string[] = [];
  private urls: string[] = [];
  private statuses: number[] = [];
  private durations: number[] = [];
  private keyIds: (string | null)[] = [];
  private userIds: (string | null)[] = [];
  private clusterIds: (string | null)[] = [];
  private ips: string[] = [];
  private agents: (string | null)[] = [];
  private requestIds: string[] = [];
  private times: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: RequestLogStore,
    private readonly log: FastifyBaseLogger,
    private readonly flushIntervalMs = 200,
    private readonly maxBuffered = 256,
  ) {}

  /** Buffers one answered request. */
  record(r: ObservedRequest): void {
    this.methods.push(r.method);
    this.urls.push(r.url);
    this.statuses.push(r.status);
    this.durations.push(r.durationMs);
    this.keyIds.push(r.keyId);
    this.userIds.push(r.userId);
    this.clusterIds.push(r.clusterId);
    this.ips.push(r.ip);
    this.agents.push(r.userAgent);
    this.requestIds.push(r.requestId);
    this.times.push(r.at);
    if (this.times.length >= this.maxBuffered) {
      void this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Entries waiting to be written. */
  get buffered(): number {
    return this.times.length;
  }

  /** Writes everything buffered so far; resolves when it (and every earlier write) is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.times.length === 0) return this.writing;
    const records = this.drain();
    this.writing = this.writing.then(() =>
      this.store.append(records).catch((error: unknown) => {
        this.log.error({ err: error, entries: records.length }, 'writing the request log failed');
      }),
    );
    return this.writing;
  }

  /** Writes what is left; call before the storage closes. */
  close(): Promise<void> {
    return this.flush();
  }

  private drain(): RequestLogRecord[] {
    const {
      methods,
      urls,
      statuses,
      durations,
      keyIds,
      userIds,
      clusterIds,
      ips,
      agents,
      requestIds,
      times,
    } = this;
    this.methods = [];
    this.urls = [];
    this.statuses = [];
    this.durations = [];
    this.keyIds = [];
    this.userIds = [];
    this.clusterIds = [];
    this.ips = [];
    this.agents = [];
    this.requestIds = [];
    this.times = [];
    return times.map((at, i) => {
      const target = redactRequestTarget(urls[i]!);
      return {
        id: `rl_${ulid(at)}`,
        at,
        method: methods[i]!,
        path: target.length > MAX_TARGET ? target.slice(0, MAX_TARGET) : target,
        status: statuses[i]!,
        durationMs: Math.round(durations[i]! * 1000) / 1000,
        keyId: keyIds[i]!,
        userId: userIds[i]!,
        clusterId: clusterIds[i]!,
        ip: ips[i]!,
        userAgent: agents[i]!,
        requestId: requestIds[i]!,
      };
    });
  }
}
