/**
 * `pnpm bench:clusters`: the cluster checks benchmark alone (see lib/cluster-checks.mjs and lib/side-by-side-script.mjs);
 * prints its section of docs/benchmarks.md and writes it into the page in place of the previous one.
 * Options: --connections 50 --duration 10 --warmup 3 --rounds 3 --documents 10000 --skip-build --out docs/benchmarks.md
 */
import { clusterChecksBenchmark } from './lib/cluster-checks.mjs';
import { runSideBySideScript } from './lib/side-by-side-script.mjs';

await runSideBySideScript(clusterChecksBenchmark);
