import { defineConfig } from 'vitest/config';

// One project per package (and one for the examples); each keeps its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts'],
    // Most test files wait on databases, child servers and sockets rather than on the CPU: three at once keep a
    // 2-core machine busy and halve the run's wall time against the default (one file at a time here).
    maxWorkers: 3,
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
