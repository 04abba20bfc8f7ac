import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newBackupsCreateCommand } from './create.js';
import { newBackupsDownloadCommand } from './download.js';
import { newBackupsListCommand } from './list.js';
import { newBackupsRestoreCommand } from './restore.js';
import { newBackupsScheduleCommand } from './schedule.js';

describe('dp backups: arguments', () => {
  it('parses every verb', async () => {
    expect(await parseArgs(newBackupsListCommand, [])).toMatchObject({ ok: true, options: {} });
    expect(await parseArgs(newBackupsCreateCommand, [])).toMatchObject({ ok: true, options: {} });
    expect(await parseArgs(newBackupsDownloadCommand, ['bkp_1', '-o', 'x.gz'])).toMatchObject({
      options: { id: 'bkp_1', output: 'x.gz' },
    });
    expect(await parseArgs(newBackupsRestoreCommand, ['bkp_1', '--target', 'cls_2', '--wait'])).toMatchObject(
      {
        options: { id: 'bkp_1', target: 'cls_2', wait: true, interval: 1000 },
      },
    );
    expect(await parseArgs(newBackupsScheduleCommand, [])).toMatchObject({
      options: { cron: undefined, retain: 7, off: false },
    });
    expect(await parseArgs(newBackupsScheduleCommand, ['@daily', '--retain', '3'])).toMatchObject({
      options: { cron: '@daily', retain: 3, off: false },
    });
  });

  it.each([
    [newBackupsDownloadCommand, []],
    [newBackupsRestoreCommand, []],
    [newBackupsRestoreCommand, ['bkp_1', '--interval', '1']],
    [newBackupsScheduleCommand, ['@daily', '--retain', '0']],
  ] as const)('refuses bad arguments with exit status 2 (%#)', async (make, argv) => {
    expect(await parseArgs(make as never, [...argv])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp backups: run', () => {
  const api = useMockApi();

  const signedIn = async () => (await api.signUp()).env;

  it('creates a backup, lists it, downloads its archive to a file and restores it', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o1', total: 3 }]);
    const env = await signedIn();
    const created = await runCli(['backups', 'create'], { env });
    expect(created.code, created.stderr).toBe(0);
    const backup = JSON.parse(created.stdout) as { _id: string; status: string };
    expect(backup.status).toBe('succeeded');

    const listed = await runCli(['backups'], { env });
    expect(JSON.parse(listed.stdout.trim().split('\n')[0]!)).toMatchObject({ _id: backup._id });

    const file = join(mkdtempSync(join(tmpdir(), 'dp-backups-')), 'b.ndjson.gz');
    const downloaded = await runCli(['backups', 'download', backup._id, '-o', file], { env });
    expect(downloaded.code, downloaded.stderr).toBe(0);
    expect(existsSync(file)).toBe(true);
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    expect(text).toContain('"type":"manifest"');

    const restored = await runCli(['backups', 'restore', backup._id, '--wait', '--json'], { env });
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ kind: 'restore', status: 'succeeded' });
    expect(api.requests().filter((r) => r.includes('/api/backups'))).toEqual([
      'POST /api/backups',
      'GET /api/backups',
      `GET /api/backups/${backup._id}/download`,
      `POST /api/backups/${backup._id}/restore`,
    ]);
  });

  it('shows, sets and removes the schedule', async () => {
    const env = await signedIn();
    const none = await runCli(['backups', 'schedule'], { env });
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ cron: null });
    const set = await runCli(['backups', 'schedule', '0 3 * * *', '--retain', '14'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ cron: '0 3 * * *', retain: 14 });
    const off = await runCli(['backups', 'schedule', '--off'], { env });
    expect(JSON.parse(off.stdout)).toMatchObject({ cron: null });
    expect(api.requests().filter((r) => r.includes('/api/backups'))).toEqual([
      'GET /api/backups/schedule',
      'PUT /api/backups/schedule',
      'PUT /api/backups/schedule',
    ]);
  });

  it('names the operation when the schedule is refused', async () => {
    const env = await signedIn();
    const bad = await runCli(['backups', 'schedule', 'every day'], { env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('set the backup schedule');
  });

  it('names the operation when the backup does not exist', async () => {
    const env = await signedIn();
    const missing = await runCli(['backups', 'restore', 'bkp_nope'], { env });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('restore backup "bkp_nope"');
  });
});
