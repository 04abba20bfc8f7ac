import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// Runs the very script behind `pnpm size`, so the budget cannot drift between the two.
it('keeps the client bundle within 12 KB gzipped, without zod or any other dependency', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/size.mjs', '--json'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });
  const report = JSON.parse(stdout) as { gzip: number; limit: number; foreign: string[] };
  expect(report.limit).toBe(12 * 1024);
  expect(report.foreign).toEqual([]);
  expect(report.gzip).toBeLessThanOrEqual(report.limit);
});
