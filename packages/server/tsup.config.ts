import { cpSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

// The server's own dependencies that are loaded on first use (src/lazy.ts), native or read files beside their own
// modules stay outside the bundle; a dependency of a workspace package (node-sql-parser) is bundled, since the
// server could not resolve it from its own folder.
const external = [
  'esbuild',
  'better-sqlite3',
  'postgres',
  'ioredis',
  'undici',
  'nodemailer',
  'jose',
  '@simplewebauthn/server',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@zxcvbn-ts/language-common',
  // Payments, loaded with the first Stripe call (services/stripe-payments.ts).
  'stripe',
  // JSON Schema validators, loaded when a collection first has one (services/schema-guards.ts).
  'ajv',
  // Native: V8 isolates for functions, loaded by the first run or deploy.
  'isolated-vm',
  'croner',
  // Request metrics: the latency histograms (loaded by the first request to a cluster) and the operator's
  // Prometheus registry (loaded by the first scrape of /metrics).
  'hdr-histogram-js',
  'prom-client',
  // Fastify's default schema compilers: never loaded, since the server gives Fastify its own (contract-validation.ts).
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
];

// zod's namespace (`z`) carries every locale's error messages, half of zod's code, all compiled at each start; the
// server speaks English only, so the bundle's locale table holds English alone (zod's default, set when zod loads).
const englishOnlyZod: Plugin = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      /[\\/]zod[\\/]v4[\\/]/.test(importer)
        ? { path: 'zod-english', namespace: 'english-only-zod' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'english-only-zod' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    }));
  },
};

export default defineConfig({
  // The batch planner's, the training and the SQLite snapshot threads load their scripts by a URL next to the chunk that starts it, so it must be an entry.
  entry: {
    index: 'src/index.ts',
    bin: 'src/bin.ts',
    'batch-plan-worker': 'src/services/batch-plan-worker.ts',
    'training-worker': 'src/services/intelligence/training-worker.ts',
    'sqlite-snapshot-worker': 'src/storage/sqlite/snapshot-worker.ts',
  },
  format: ['esm'],
  external,
  // Everything else is bundled: resolving and reading a few hundred small files was most of the time to start.
  noExternal: [new RegExp(`^(?!(?:${external.join('|')})(?:$|/))`)],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
  esbuildPlugins: [englishOnlyZod],
  // The dashboard's build (packages/dashboard, built first by turbo) ships inside the server's: dist/dashboard/.
  async onSuccess() {
    const built = new URL('../dashboard/dist/', import.meta.url);
    if (!existsSync(built))
      throw new Error('packages/dashboard/dist is missing: build @dataplatform/dashboard first');
    cpSync(built, new URL('./dist/dashboard/', import.meta.url), { recursive: true });
  },
});
