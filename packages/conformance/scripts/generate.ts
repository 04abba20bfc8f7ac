// Writes what spec/conformance derives from code: case.schema.json from the case format, and generic/*.json from the
// contract's route table. With --check, fails when a committed file differs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { caseJsonSchema } from '../src/case.js';
import { genericCases } from '../src/generic.js';
import { CASES_DIR } from '../src/load.js';

const files = new Map<string, unknown>([[join(CASES_DIR, 'case.schema.json'), caseJsonSchema()]]);
for (const [name, testCase] of Object.entries(genericCases()))
  files.set(join(CASES_DIR, 'generic', `${name}.json`), testCase);

const check = process.argv.includes('--check');
const stale: string[] = [];
mkdirSync(join(CASES_DIR, 'generic'), { recursive: true });
for (const [file, value] of files) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {}
  if (current === text) continue;
  if (check) stale.push(relative(join(CASES_DIR, '../..'), file));
  else writeFileSync(file, text);
}
if (stale.length > 0) {
  console.error(`Stale, run \`pnpm codegen\` and commit the result: ${stale.join(', ')}`);
  process.exit(1);
}
console.log(check ? 'spec/conformance is up to date' : 'spec/conformance is written');
