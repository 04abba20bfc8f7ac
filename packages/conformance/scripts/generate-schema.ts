// Writes spec/conformance/case.schema.json from the case format; with --check, fails when the committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { caseJsonSchema } from '../src/case.js';

const target = fileURLToPath(new URL('../../../spec/conformance/case.schema.json', import.meta.url));
const text = `${JSON.stringify(caseJsonSchema(), null, 2)}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== text) {
    console.error('spec/conformance/case.schema.json is stale: run `pnpm codegen` and commit the result.');
    process.exit(1);
  }
  console.log('case.schema.json is up to date');
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
