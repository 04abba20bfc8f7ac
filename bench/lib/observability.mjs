/**
 * The observability benchmark (issue 21): GET by id with the request log and the request metrics (every answer
 * logged in batches, counted into HDR histograms and written every 10 s) and with both switched off (the
 * programmatic `observability` option), side by side.
 */

/** @type {import('./side-by-side.mjs').SideBySideBenchmark} */
export const observabilityBenchmark = {
  name: 'observability',
  heading: 'Request logs and metrics',
  targets: {
    observed: { env: {}, label: 'request log and metrics on' },
    unobserved: { env: { BENCH_AUTH: 'no-observability' }, label: 'request log and metrics off' },
  },
  setting: `One keeps the request log (every answer buffered and written in batches of up to 1000 rows every
200 ms) and the request metrics (every answer counted per cluster and key into an HDR histogram, added to the
minute, hour and day buckets every 10 s) and counts the Prometheus HTTP series; the other has all of it switched
off (the programmatic \`observability\` option, which no environment variable reaches).`,
  goal: { label: 'GET by id with request logs and metrics vs without', ratio: 0.9 },
};
