import { defineConfig } from 'tsup';

export default defineConfig({
  // The batch planner's thread loads its script by a URL next to the chunk that starts it, so it must be an entry.
  entry: {
    index: 'src/index.ts',
    bin: 'src/bin.ts',
    'batch-plan-worker': 'src/services/batch-plan-worker.ts',
  },
  format: ['esm'],
  // Only source runs (tests, `pnpm dev`) bundle the planner's thread with esbuild; the build never loads it.
  external: ['esbuild'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
