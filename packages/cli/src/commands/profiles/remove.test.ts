import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { newProfilesRemoveCommand } from './remove.js';

describe('dp profiles remove: arguments', () => {
  it('takes one name', async () => {
    expect(await parseArgs(newProfilesRemoveCommand, ['ci'])).toMatchObject({
      ok: true,
      options: { name: 'ci' },
    });
    expect(await parseArgs(newProfilesRemoveCommand, ['ci', '--yes'])).toMatchObject({
      ok: true,
      options: { name: 'ci', yes: true },
    });
    expect(await parseArgs(newProfilesRemoveCommand, ['a', 'b'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp profiles remove: run', () => {
  it('deletes the profile with its credentials; the "default" one is used afterwards', async () => {
    const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir() };
    await runCli(['config', 'set', 'api-key', 'svc_ci', '--profile', 'ci'], { env });
    await runCli(['profiles', 'use', 'ci'], { env });
    const removed = await runCli(['profiles', 'remove', 'ci', '--json', '--yes'], { env });
    expect(JSON.parse(removed.stdout)).toEqual({ name: 'ci', removed: true });
    const list = JSON.parse((await runCli(['profiles', 'list', '--json'], { env })).stdout);
    expect(list).toEqual({ current: 'default', profiles: [] });
  });

  it('keeps the profile unless confirmed: refused without --yes in a script, asked on a terminal', async () => {
    const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' };
    await runCli(['config', 'set', 'api-key', 'svc_ci', '--profile', 'ci'], { env });
    const refused = await runCli(['profiles', 'remove', 'ci'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to remove profile "ci"');
    expect(refused.stderr).toContain('pass --yes to confirm');
    const tty = { stdin: true, stdout: true, stderr: true };
    const declined = await runCli(['profiles', 'remove', 'ci'], { env, tty, stdin: '\n' });
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain('Remove profile "ci" and the credentials in it? [y/N] ');
    const list = async () => JSON.parse((await runCli(['profiles', 'list', '--json'], { env })).stdout);
    expect((await list()).profiles).toHaveLength(1);
    const removed = await runCli(['profiles', 'remove', 'ci'], { env, tty, stdin: 'y\n' });
    expect(removed.code).toBe(0);
    expect((await list()).profiles).toEqual([]);
  });

  it('exits with status 4 when there is no such profile', async () => {
    const result = await runCli(['profiles', 'remove', 'ci'], {
      env: { DATAPLATFORM_CONFIG_DIR: tempConfigDir() },
    });
    expect(result.code).toBe(4);
  });
});
