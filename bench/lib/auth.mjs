/**
 * The key-authentication benchmark (issue 6): GET by id with every request authenticated by an API key, counted by
 * the rate limiter and written to the key's usage history, against the same server with authentication and rate
 * limiting switched off (a programmatic option only), side by side.
 */

/** @type {import('./side-by-side.mjs').SideBySideBenchmark} */
export const authBenchmark = {
  name: 'auth',
  heading: 'Key authentication',
  targets: {
    keyed: { env: { BENCH_AUTH: 'limited' }, label: 'API key, rate limit and usage history' },
    open: { env: { BENCH_AUTH: 'off' }, label: 'authentication and rate limiting off' },
  },
  setting: `One checks an API key on every request, counts it in the rate limiter of the key's tier (a
free-tier account whose limit the benchmark raises out of reach through the programmatic \`rateLimits\` option, so
nothing is refused) and writes it to the key's usage history; the other runs with authentication and rate
limiting switched off (the programmatic \`unauthenticatedCluster\` option, which no environment variable reaches).`,
  goal: { label: 'GET by id with key auth and rate limiting vs both off', ratio: 0.9 },
};
