// Writes openapi.json from the contract; with --check, fails when the committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi/build.js';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== text) {
    console.error('packages/contract/openapi.json is stale: run `pnpm codegen` and commit the result.');
    process.exit(1);
  }
  console.log('openapi.json is up to date');
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
