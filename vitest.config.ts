import { defineConfig } from 'vitest/config';

// One project per package (and one for the examples); each keeps its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
