import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeEntries, loadFailures } from './entries.js';
import {
  diskKB,
  installInEmptyProject,
  must,
  pack,
  removeTemporaryFolders,
  temporaryFolder,
} from './project.js';

// Every package a user installs as a library or a tool. The server is an application with a native module
// (better-sqlite3) and is not part of this check.
const PUBLIC = ['sdk', 'webhooks', 'contract', 'mocks', 'cli'] as const;
const SDK_LIMIT_KB = 5 * 1024;

/** Top-level entries of a project's node_modules, scoped ones as `@scope/name`. */
function installed(project: string): string[] {
  const root = join(project, 'node_modules');
  return readdirSync(root)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) =>
      name.startsWith('@') ? readdirSync(join(root, name)).map((inner) => `${name}/${inner}`) : [name],
    )
    .sort();
}

// Slow (packing, then npm installs that may reach the registry): the two installs run at the same time, and the
// file runs beside the others, since it mostly waits.
describe.concurrent('what a user installs, packed with pnpm pack and installed with npm', () => {
  const tarballs = {} as Record<(typeof PUBLIC)[number], string>;

  beforeAll(async () => {
    const destination = temporaryFolder('dp-pack-');
    await Promise.all(
      PUBLIC.map(async (name) => {
        tarballs[name] = await pack(name, destination);
      }),
    );
  }, 120_000);
  afterAll(removeTemporaryFolders);

  it('the SDK brings undici and the verifier alone, under 5 MB, and loads from ESM and CommonJS', async () => {
    const project = await installInEmptyProject([tarballs.sdk, tarballs.webhooks]);
    expect(installed(project)).toEqual(['@dataplatform/sdk', '@dataplatform/webhooks', 'undici']);
    const kb = await diskKB(join(project, 'node_modules'));
    expect(kb, `node_modules takes ${kb} KB`).toBeLessThan(SDK_LIMIT_KB);

    const entries = codeEntries(project, '@dataplatform/sdk');
    expect(await loadFailures(project, entries, 'import')).toEqual([]);
    expect(await loadFailures(project, entries, 'require')).toEqual([]);
    // Its declarations name no package but the verifier: the contract's types are written out inside.
    for (const file of ['index.d.ts', 'index.d.cts']) {
      const text = readFileSync(join(project, 'node_modules/@dataplatform/sdk/dist', file), 'utf8');
      const from = [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
      expect(new Set(from)).toEqual(new Set(['@dataplatform/webhooks']));
    }
  }, 180_000);

  it('the contract, the mocks, the verifier and the CLI install and load every entry', async () => {
    const project = await installInEmptyProject([
      tarballs.contract,
      tarballs.mocks,
      tarballs.webhooks,
      tarballs.cli,
    ]);
    const entries = ['@dataplatform/contract', '@dataplatform/mocks', '@dataplatform/webhooks'].flatMap(
      (name) => codeEntries(project, name),
    );
    expect(entries).toContain('@dataplatform/webhooks/node');
    expect(await loadFailures(project, entries, 'import')).toEqual([]);
    expect(await loadFailures(project, entries, 'require')).toEqual([]);
    expect((await must(join(project, 'node_modules/.bin/dp'), ['--version'], project)).trim()).toBe('1.0.0');

    // The SQL parser is behind the contract's `sql` entry: without it, the main entry still loads.
    renameSync(
      join(project, 'node_modules/node-sql-parser'),
      join(project, 'node_modules/.hidden-sql-parser'),
    );
    for (const style of ['import', 'require'] as const) {
      expect(await loadFailures(project, ['@dataplatform/contract'], style)).toEqual([]);
      expect(await loadFailures(project, ['@dataplatform/contract/sql'], style)).toHaveLength(1);
    }
  }, 180_000);
});
