/**
 * `pnpm bench:observability`: the request logs and metrics benchmark alone (see lib/observability.mjs and lib/side-by-side-script.mjs);
 * prints its section of docs/benchmarks.md and writes it into the page in place of the previous one.
 * Options: --connections 50 --duration 10 --warmup 3 --rounds 3 --documents 10000 --skip-build --out docs/benchmarks.md
 */
import { observabilityBenchmark } from './lib/observability.mjs';
import { runSideBySideScript } from './lib/side-by-side-script.mjs';

await runSideBySideScript(observabilityBenchmark);
