#!/usr/bin/env node
// Measures the client as a browser or edge bundler would ship it: one minified ESM bundle of src/index.ts with
// `undici` and the webhook verifier external (each loaded lazily, on first use), gzipped. Fails above the budget, or when anything but the
// SDK's own sources got bundled (a value import from @dataplatform/contract would drag zod in).
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const LIMIT = 12 * 1024;
const root = fileURLToPath(new URL('..', import.meta.url));

const result = await build({
  entryPoints: [`${root}/src/index.ts`],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  // undici loads lazily on Node only; the webhook verifier loads on the first `client.webhooks.verify` call.
  external: ['undici', '@dataplatform/webhooks'],
  write: false,
  metafile: true,
  logLevel: 'silent',
});

const code = result.outputFiles[0].contents;
const gzip = gzipSync(code, { level: 9 }).length;
const foreign = Object.keys(result.metafile.inputs)
  .map((input) => relative(root, input))
  .filter((input) => !input.startsWith('src/'));
const report = { minified: code.length, gzip, limit: LIMIT, foreign };

if (process.argv.includes('--json')) console.log(JSON.stringify(report));
else console.log(`@dataplatform/sdk: ${code.length} B minified, ${gzip} B gzipped (limit ${LIMIT} B)`);

if (foreign.length > 0) {
  console.error(`Bundled files outside src/: ${foreign.join(', ')}. Import them with \`import type\` only.`);
  process.exitCode = 1;
}
if (gzip > LIMIT) {
  console.error(`Over the size budget by ${gzip - LIMIT} B.`);
  process.exitCode = 1;
}
