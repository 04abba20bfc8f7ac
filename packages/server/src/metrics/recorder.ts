import type { FastifyBaseLogger } from 'fastify';
import type { Histogram } from 'hdr-histogram-js';
import type { RequestObserver } from '../http/observe-requests.js';
import type { ObservedRequest } from '../services/request-log-recorder.js';
import type { MetricDelta, MetricsStore } from '../storage/metrics.js';
import { encodeSketch, mergeSketches, newSketch } from './latency-sketch.js';

interface Cell {
  clusterId: string;
  keyId: string;
  minute: number;
  requests: number;
  errors: number;
  bytesIn: number;
  bytesOut: number;
  sketch: Histogram;
}

/**
 * Counts every request to a cluster, per minute, for the cluster and for the key it was made with: requests,
 * errors (400 and up), bytes and an HDR histogram of durations, in memory. Every 10 s (and at `flush()`) the
 * minutes are added to storage's minute, hour and day buckets in one transaction, histograms merged. A request
 * costs a map lookup and a histogram increment or two; a failed write is logged and dropped.
 */
export class MetricsRecorder implements RequestObserver {
  private cells = new Map<string, Cell>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: MetricsStore,
    private readonly log: FastifyBaseLogger,
    private readonly flushIntervalMs = 10_000,
  ) {}

  record(request: ObservedRequest): void {
    const clusterId = request.clusterId;
    if (clusterId === null) return;
    const minute = request.at - (request.at % 60_000);
    const micros = Math.max(1, Math.round(request.durationMs * 1000));
    this.add(this.cell(clusterId, '', minute), request, micros);
    if (request.keyId !== null) this.add(this.cell(clusterId, request.keyId, minute), request, micros);
    if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Adds what was counted so far to storage; resolves when it (and every earlier write) is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.cells.size === 0) return this.writing;
    const cells = [...this.cells.values()];
    this.cells = new Map();
    this.writing = this.writing.then(() => {
      const deltas: MetricDelta[] = cells.map((c) => ({
        clusterId: c.clusterId,
        keyId: c.keyId,
        minute: c.minute,
        requests: c.requests,
        errors: c.errors,
        bytesIn: c.bytesIn,
        bytesOut: c.bytesOut,
        sketch: encodeSketch(c.sketch),
      }));
      return this.store.add(deltas, mergeSketches).catch((error: unknown) => {
        this.log.error({ err: error, buckets: deltas.length }, 'writing request metrics failed');
      });
    });
    return this.writing;
  }

  close(): Promise<void> {
    return this.flush();
  }

  private cell(clusterId: string, keyId: string, minute: number): Cell {
    const id = `${minute}|${clusterId}|${keyId}`;
    let cell = this.cells.get(id);
    if (!cell) {
      cell = {
        clusterId,
        keyId,
        minute,
        requests: 0,
        errors: 0,
        bytesIn: 0,
        bytesOut: 0,
        sketch: newSketch(),
      };
      this.cells.set(id, cell);
    }
    return cell;
  }

  private add(cell: Cell, request: ObservedRequest, micros: number): void {
    cell.requests++;
    if (request.status >= 400) cell.errors++;
    cell.bytesIn += request.bytesIn;
    cell.bytesOut += request.bytesOut;
    cell.sketch.recordValue(micros);
  }
}
