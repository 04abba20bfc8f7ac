// Writes every client's code that comes from the contract's openapi.json: the Python, Go and Java clients' models
// and resource methods. With --check, writes nothing and fails when a committed file differs (`pnpm codegen:check`),
// so a route added to the contract cannot land without its method in every client.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goClient } from '../src/go/index.js';
import { javaClient } from '../src/java/index.js';
import type { OpenAPIDocument } from '../src/openapi.js';
import { pythonClient } from '../src/python/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const doc = JSON.parse(readFileSync(join(root, 'packages/contract/openapi.json'), 'utf8')) as OpenAPIDocument;

const targets: [string, Map<string, string>][] = [
  [join(root, 'packages/sdk-python/src/dataplatform/_generated'), pythonClient(doc)],
  [join(root, 'packages/sdk-go'), goClient(doc)],
  [join(root, 'packages/sdk-java/src/main/java/dev/dataplatform'), javaClient(doc)],
];

const check = process.argv.includes('--check');
const stale: string[] = [];
for (const [dir, files] of targets) {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of files) {
    const file = join(dir, name);
    // The Java client's files sit in folders of their own (models/, resources/).
    mkdirSync(dirname(file), { recursive: true });
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {}
    if (current === text) continue;
    if (check) stale.push(relative(root, file));
    else writeFileSync(file, text);
  }
}
if (stale.length > 0) {
  console.error(`Stale, run \`pnpm codegen\` and commit the result: ${stale.join(', ')}`);
  process.exit(1);
}
console.log(check ? 'the generated client code is up to date' : 'the generated client code is written');
