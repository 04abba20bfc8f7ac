import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { newProfilesRemoveCommand } from './remove.js';

describe('dp profiles remove: arguments', () => {
  it('takes one name', async () => {
    expect(await parseArgs(newProfilesRemoveCommand, ['ci'])).toMatchObject({
      ok: true,
      options: { name: 'ci' },
    });
    expect(await parseArgs(newProfilesRemoveCommand, ['a', 'b'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp profiles remove: run', () => {
  it('deletes the profile with its credentials; the "default" one is used afterwards', async () => {
    const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir() };
    await runCli(['config', 'set', 'api-key', 'svc_ci', '--profile', 'ci'], { env });
    await runCli(['profiles', 'use', 'ci'], { env });
    const removed = await runCli(['profiles', 'remove', 'ci', '--json'], { env });
    expect(JSON.parse(removed.stdout)).toEqual({ name: 'ci', removed: true });
    const list = JSON.parse((await runCli(['profiles', 'list', '--json'], { env })).stdout);
    expect(list).toEqual({ current: 'default', profiles: [] });
  });

  it('exits with status 4 when there is no such profile', async () => {
    const result = await runCli(['profiles', 'remove', 'ci'], {
      env: { DATAPLATFORM_CONFIG_DIR: tempConfigDir() },
    });
    expect(result.code).toBe(4);
  });
});
