/** The load generator: one autocannon run of one request shape, ids or bodies varied per request. */
import autocannon from 'autocannon';

/**
 * Loads `url` with `connections` connections for `duration` seconds; `next()` gives each request's `{ path }` or
 * `{ body }`. Resolves with `{ rps, p50, p99, total, failed }` (latencies in ms).
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
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => {
      if (error) return reject(error);
      resolve({
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        total: result.requests.total,
        // Anything but a 2xx answer means the target did not do the work, so it is shown next to the figure.
        failed: result.non2xx + result.errors + result.timeouts,
      });
    });
  });
}
