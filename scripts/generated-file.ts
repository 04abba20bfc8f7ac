import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Writes a generated, committed file; with `--check` on the command line, writes nothing and exits with status 1
 * when the committed file differs, with the fix in one line (`pnpm codegen:check` runs every package's check).
 * @example writeGenerated(target, text, 'packages/contract/openapi.json');
 */
export function writeGenerated(target: string, text: string, name: string): void {
  if (!process.argv.includes('--check')) {
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
    return;
  }
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== text) {
    console.error(`${name} is stale: run \`pnpm codegen\` and commit the result.`);
    process.exit(1);
  }
  console.log(`${name} is up to date`);
}
