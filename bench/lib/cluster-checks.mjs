/**
 * The cluster-checks benchmark (issue 16): GET by id with the checks every API-key request makes for its cluster
 * (the cluster's status and the role its owner holds there, read with the key's record) and with them switched off
 * (the programmatic `clusterChecks` option), side by side.
 */

/** @type {import('./side-by-side.mjs').SideBySideBenchmark} */
export const clusterChecksBenchmark = {
  name: 'clusters',
  heading: 'Cluster checks',
  targets: {
    checked: { env: {}, label: 'cluster status and role checked' },
    unchecked: { env: { BENCH_AUTH: 'no-cluster-checks' }, label: 'cluster checks off' },
  },
  setting: `One makes the checks every API-key request makes for its cluster: the cluster is running, and the
key's owner is still a member whose role allows the route (both read with the key's record, which the
authentication cache keeps); the other has them switched off (the programmatic \`clusterChecks\` option, which no
environment variable reaches).`,
  goal: { label: 'GET by id with cluster status and role checks vs without', ratio: 0.95 },
};
