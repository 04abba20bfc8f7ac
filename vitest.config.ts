import { defineConfig } from 'vitest/config';

// One project per package (and one for the examples); each keeps its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts'],
    // Most test files wait on databases, child servers and sockets rather than on the CPU: two at once keep a
    // 2-core machine busy without starving the files that do need it.
    maxWorkers: 2,
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
