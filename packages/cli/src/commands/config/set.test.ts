import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { newConfigSetCommand } from './set.js';

describe('dp config set: arguments', () => {
  it.each([
    { argv: ['base-url', 'http://x'], options: { key: 'base-url', value: 'http://x' } },
    { argv: ['api-key'], options: { key: 'api-key', value: undefined } },
    { argv: ['token', '-'], options: { key: 'token', value: '-' } },
  ])('$argv', async ({ argv, options }) => {
    const parsed = await parseArgs(newConfigSetCommand, argv);
    expect(parsed.ok && parsed.options).toEqual(options);
  });

  it('refuses an unknown setting with exit status 2, listing the known ones', async () => {
    const parsed = await parseArgs(newConfigSetCommand, ['colour', 'red']);
    expect(parsed).toMatchObject({ ok: false, code: 2 });
    expect(parsed.ok || parsed.stderr).toContain('Allowed choices are base-url, api-key, token');
  });
});

describe('dp config set: run', () => {
  const saved = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

  it('saves into the "default" profile, normalizing the address, in a file only the owner can read', async () => {
    const dir = tempConfigDir();
    const env = { DATAPLATFORM_CONFIG_DIR: dir };
    expect(await runCli(['config', 'set', 'base-url', 'https://data.example.com/'], { env })).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(saved(dir)).toEqual({ profiles: { default: { baseUrl: 'https://data.example.com' } } });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('reads a secret from standard input and saves it into the profile --profile names', async () => {
    const dir = tempConfigDir();
    const result = await runCli(['config', 'set', 'api-key', '--profile', 'ci', '--json'], {
      env: { DATAPLATFORM_CONFIG_DIR: dir },
      stdin: 'svc_from_stdin\n',
    });
    expect(result).toEqual({ code: 0, stdout: '{\n  "profile": "ci",\n  "key": "api-key"\n}\n', stderr: '' });
    expect(saved(dir)).toEqual({ profiles: { ci: { apiKey: 'svc_from_stdin' } } });
  });

  it('confirms on a terminal, naming the file', async () => {
    const dir = tempConfigDir();
    const result = await runCli(['config', 'set', 'token', 'tok'], {
      env: { DATAPLATFORM_CONFIG_DIR: dir, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(result.stderr).toBe(`✓ Saved token in profile "default" (${join(dir, 'config.json')})\n`);
  });

  it.each([
    { argv: ['base-url', 'localhost:5000'], error: 'invalid base address "localhost:5000" (from base-url)' },
    { argv: ['api-key', ' '], error: 'api-key cannot be empty' },
    { argv: ['base-url', 'http://x', '--profile', 'no/slash'], error: 'invalid profile name "no/slash"' },
  ])('refuses $argv with exit status 2 and saves nothing', async ({ argv, error }) => {
    const dir = tempConfigDir();
    const result = await runCli(['config', 'set', ...argv], { env: { DATAPLATFORM_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${error}`);
    expect(() => statSync(join(dir, 'config.json'))).toThrow();
  });
});
