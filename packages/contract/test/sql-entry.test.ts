import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** Every module the file imports, followed through relative imports. */
function importGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)) {
    if (specifier!.startsWith('.'))
      importGraph(resolve(dirname(file), specifier!.replace(/\.js$/, '.ts')), seen);
    else seen.add(specifier!);
  }
  return seen;
}

it('keeps the SQL parser out of the main entry point (the SDK and browsers load it)', () => {
  const graph = [...importGraph(resolve(src, 'index.ts'))];
  expect(graph.filter((m) => m.includes('node-sql-parser') || m.includes('/sql/'))).toEqual([]);
  expect([...importGraph(resolve(src, 'sql/index.ts'))]).toContain('node-sql-parser/build/trino.js');
});
