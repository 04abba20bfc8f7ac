import { defineConfig } from 'tsup';

export default defineConfig({
  // The SQL parser is its own entry point, so the main entry (and the SDK's types) never load it.
  entry: { index: 'src/index.ts', sql: 'src/sql/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
