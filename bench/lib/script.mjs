/** What every `pnpm bench:<part>` script does around its measurement: build what it runs, write its section. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { replaceSection } from './page.mjs';

/** Builds the workspace packages `names`, in order, with their output shown; throws on the first failure. */
export function buildPackages(root, names) {
  for (const name of names) {
    const built = spawnSync('pnpm', ['--filter', name, 'run', 'build'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`pnpm --filter ${name} build failed`);
  }
}

/** Puts `markdown` in place of the page's `## <title>` section (or adds it), creating the page when missing. */
export function writeSection(root, out, title, markdown) {
  const page = resolve(out);
  const current = existsSync(page) ? readFileSync(page, 'utf8') : '# Benchmarks\n';
  writeFileSync(page, replaceSection(current, title, markdown));
  console.log(`Wrote ${relative(root, page)}`);
}
