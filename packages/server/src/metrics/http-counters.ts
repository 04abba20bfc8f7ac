import type { RequestObserver } from '../http/observe-requests.js';
import type { ObservedRequest } from '../services/request-log-recorder.js';

/** Upper bounds of the duration histogram, in seconds (Prometheus' usual web buckets). */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  method: string;
  status: string;
  count: number;
  sum: number;
  buckets: number[];
}

/**
 * Every answer of this process by method and status class, with a duration histogram: plain numbers a request
 * adds to, written as Prometheus text at a scrape (prom-client itself is loaded by the first scrape only).
 */
export class HttpCounters implements RequestObserver {
  private readonly series = new Map<string, Series>();

  record(request: ObservedRequest): void {
    const status = `${Math.floor(request.status / 100)}xx`;
    const id = `${request.method} ${status}`;
    let s = this.series.get(id);
    if (!s) {
      s = { method: request.method, status, count: 0, sum: 0, buckets: BUCKETS.map(() => 0) };
      this.series.set(id, s);
    }
    const seconds = request.durationMs / 1000;
    s.count++;
    s.sum += seconds;
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) s.buckets[i]!++;
  }

  /** The counters in the Prometheus text format. */
  text(): string {
    const lines = [
      '# HELP dataplatform_http_requests_total Requests answered, by method and status class.',
      '# TYPE dataplatform_http_requests_total counter',
    ];
    for (const s of this.series.values())
      lines.push(`dataplatform_http_requests_total{method="${s.method}",status="${s.status}"} ${s.count}`);
    lines.push(
      '# HELP dataplatform_http_request_duration_seconds Time from the request read to the answer sent.',
      '# TYPE dataplatform_http_request_duration_seconds histogram',
    );
    for (const s of this.series.values()) {
      const labels = `method="${s.method}",status="${s.status}"`;
      for (let i = 0; i < BUCKETS.length; i++)
        lines.push(
          `dataplatform_http_request_duration_seconds_bucket{${labels},le="${BUCKETS[i]}"} ${s.buckets[i]}`,
        );
      lines.push(`dataplatform_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${s.count}`);
      lines.push(`dataplatform_http_request_duration_seconds_sum{${labels}} ${s.sum}`);
      lines.push(`dataplatform_http_request_duration_seconds_count{${labels}} ${s.count}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
