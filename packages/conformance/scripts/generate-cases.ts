// Writes the cases of spec/conformance/generic from the contract's route table: the refusals every route of a kind
// shares (credentials, bodies, path segments). With --check, fails when a committed file is stale.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { genericCases } from '../src/generic.js';
import { CASES_DIR } from '../src/load.js';

const dir = join(CASES_DIR, 'generic');
const check = process.argv.includes('--check');
let stale = false;
mkdirSync(dir, { recursive: true });
for (const [name, testCase] of Object.entries(genericCases())) {
  const file = join(dir, `${name}.json`);
  const text = `${JSON.stringify(testCase, null, 2)}\n`;
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {}
  if (current === text) continue;
  if (check) {
    console.error(
      `spec/conformance/generic/${name}.json is stale: run \`pnpm codegen\` and commit the result.`,
    );
    stale = true;
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
if (stale) process.exit(1);
