/**
 * The metering benchmark (issue 17): GET by id with usage metering (every data request counted for its cluster and
 * day, written in batches) and with it switched off (the programmatic `metering` option), side by side.
 */

/** @type {import('./side-by-side.mjs').SideBySideBenchmark} */
export const meteringBenchmark = {
  name: 'metering',
  heading: 'Usage metering',
  targets: {
    metered: { env: {}, label: 'usage metering on' },
    unmetered: { env: { BENCH_AUTH: 'no-metering' }, label: 'usage metering off' },
  },
  setting: `One meters usage for billing: every answered data request is counted for its cluster and day in
memory and added to storage once a second; the other has metering switched off (the programmatic \`metering\`
option, which no environment variable reaches).`,
  goal: { label: 'GET by id with usage metering vs without', ratio: 0.95 },
};
