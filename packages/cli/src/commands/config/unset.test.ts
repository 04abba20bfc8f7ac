import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { newConfigUnsetCommand } from './unset.js';

describe('dp config unset: arguments', () => {
  it('takes one setting', async () => {
    const parsed = await parseArgs(newConfigUnsetCommand, ['token']);
    expect(parsed.ok && parsed.options).toEqual({ key: 'token' });
  });

  it('refuses no setting with exit status 2', async () => {
    expect(await parseArgs(newConfigUnsetCommand, [])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp config unset: run', () => {
  it('removes the setting and says whether there was one with --json', async () => {
    const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir() };
    await runCli(['config', 'set', 'token', 'tok'], { env });
    const first = await runCli(['config', 'unset', 'token', '--json'], { env });
    expect(JSON.parse(first.stdout)).toEqual({ profile: 'default', key: 'token', removed: true });
    const again = await runCli(['config', 'unset', 'token', '--json'], { env });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ profile: 'default', key: 'token', removed: false });
    expect((await runCli(['config', 'get', 'token'], { env })).code).toBe(4);
  });
});
