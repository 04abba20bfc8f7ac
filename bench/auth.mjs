/**
 * `pnpm bench:auth`: the key authentication benchmark alone (see lib/auth.mjs and lib/side-by-side-script.mjs);
 * prints its section of docs/benchmarks.md and writes it into the page in place of the previous one.
 * Options: --connections 50 --duration 10 --warmup 3 --rounds 3 --documents 10000 --skip-build --out docs/benchmarks.md
 */
import { authBenchmark } from './lib/auth.mjs';
import { runSideBySideScript } from './lib/side-by-side-script.mjs';

await runSideBySideScript(authBenchmark);
