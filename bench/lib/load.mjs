/** The load generator: one autocannon run of one request shape, ids or bodies varied per request. */
import autocannon from 'autocannon';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (ms) => Math.round(ms * 100) / 100;

/**
 * Loads `url` with `connections` connections for `duration` seconds; `next()` gives each request's `{ path }` or
 * `{ body }`. Resolves with `{ rps, p50, p99, mean, total, failed }` (latencies in ms, of the 2xx answers).
 */
export function measure({ url, method, headers = {}, next, connections, duration }) {
  const options = {
    url,
    connections,
    duration,
    // json-server needs seconds per insert under this load; its slowness should show as latency, not failures.
    timeout: 30,
    headers,
    requests: [{ method, setupRequest: (request) => Object.assign(request, next()) }],
  };
  // autocannon's own percentiles are whole milliseconds, too coarse for ratios of 2 ms answers; the response
  // events carry the exact time.
  const latencies = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => {
      if (error) return reject(error);
      latencies.sort((a, b) => a - b);
      const exact = latencies.length > 0;
      resolve({
        rps: result.requests.average,
        p50: exact ? round(percentile(latencies, 50)) : result.latency.p50,
        p99: exact ? round(percentile(latencies, 99)) : result.latency.p99,
        mean: exact
          ? round(latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length)
          : result.latency.mean,
        total: result.requests.total,
        // Anything but a 2xx answer means the target did not do the work, so it is shown next to the figure.
        failed: result.non2xx + result.errors + result.timeouts,
      });
    });
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}
