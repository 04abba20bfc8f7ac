/** What every `pnpm bench:<part>` script does around its measurement: build what it runs, write its section. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
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

// The dashboard's build (on the SDK) ships inside the server's (packages/server/tsup.config.ts), so it is built first.
const SERVER_PACKAGES = [
  '@dataplatform/contract',
  '@dataplatform/webhooks',
  '@dataplatform/sdk',
  '@dataplatform/dashboard',
  '@dataplatform/server',
];

/**
 * An earlier commit's checkout in a temporary git worktree under `work`, with its own install (its dependencies
 * may differ from this checkout's) and its reference server built; removed when the process exits.
 * Resolves with `{ dir, revision }` (the short revision).
 */
export function checkoutRevision(root, work, name) {
  const parsed = spawnSync('git', ['rev-parse', '--short', name], { cwd: root, encoding: 'utf8' });
  if (parsed.status !== 0) throw new Error(`git does not know ${name}`);
  const revision = parsed.stdout.trim();
  const dir = join(work, 'before');
  const run = (command, args, cwd) => {
    const done = spawnSync(command, args, { cwd, stdio: 'inherit' });
    if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
  };
  process.on('exit', () => spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: root }));
  run('git', ['worktree', 'add', '--detach', dir, revision], root);
  run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=silent'], dir);
  buildPackages(dir, SERVER_PACKAGES);
  return { dir, revision };
}

/** Builds this checkout's reference server (contract, webhooks, server). */
export function buildServer(root) {
  buildPackages(root, SERVER_PACKAGES);
}
