import { defineConfig } from 'vitest/config';

// One project per package; each package keeps its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
