import { defineConfig } from 'tsup';

export default defineConfig({
  // One file per subpath export; the framework adapters stay out of the main entry.
  entry: ['src/index.ts', 'src/node.ts', 'src/express.ts', 'src/fastify.ts', 'src/hono.ts', 'src/next.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
});
