import { spawn } from 'node:child_process';
import { statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../harness.js';
import { BIN, dp } from './binary.js';
import { useReferenceServer } from './reference-server.js';

const reference = useReferenceServer();

describe('the built binary', () => {
  it('prints its version and help without a server or a config directory', async () => {
    const version = await dp(['--version']);
    expect(version).toMatchObject({ code: 0, stderr: '' });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = await dp(['data', 'list', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: dp data list [options] <collection>');
  });

  it('names itself as it was invoked', async () => {
    const link = join(tempConfigDir(), 'dataplatform');
    symlinkSync(BIN, link);
    const result = await new Promise<string>((resolve) => {
      const child = spawn(link, ['--help'], { env: { PATH: process.env.PATH ?? '' } });
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      child.on('close', () => resolve(out));
    });
    expect(result).toContain('Usage: dataplatform [options] [command]');
  });

  it('exits with status 2 for a usage error', async () => {
    const result = await dp(['data', 'list', 'orders', '--limit', 'many']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: option '--limit <n>' argument 'many' is invalid");
  });

  it('keeps a profile in a 0600 file and uses it, with a variable overriding it', async () => {
    const { url, apiKey } = reference();
    const configDir = tempConfigDir();
    const env = { DATAPLATFORM_CONFIG_DIR: configDir };
    expect((await dp(['config', 'set', 'base-url', url, '--profile', 'local'], { env })).code).toBe(0);
    expect(
      (await dp(['config', 'set', 'api-key', '--profile', 'local'], { env, stdin: `${apiKey}\n` })).code,
    ).toBe(0);
    expect((await dp(['profiles', 'use', 'local'], { env })).code).toBe(0);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);

    const inserted = await dp(['data', 'insert', 'profiled', '{"_id":"p-1"}', '--json'], { env });
    expect(inserted.code).toBe(0);
    const whoami = JSON.parse((await dp(['whoami', '--json'], { env })).stdout);
    expect(whoami).toEqual({
      profile: { name: 'local', from: 'the saved current profile' },
      baseUrl: { value: url, from: 'profile "local"' },
      credential: { kind: 'api-key', value: `${apiKey.slice(0, 8)}…`, from: 'profile "local"' },
    });

    const overridden = await dp(['data', 'get', 'profiled', 'p-1'], {
      env: { ...env, DATAPLATFORM_API_KEY: 'svc_wrong' },
    });
    expect(overridden.code).toBe(3);
    expect(overridden.stderr).toContain('(the API key from DATAPLATFORM_API_KEY)');
  });

  it('stops quietly with status 0 when the reader of its output goes away', async () => {
    const env = reference().env();
    const docs = Array.from({ length: 1000 }, (_, i) => ({
      op: 'insert',
      collection: 'many',
      data: { i, pad: 'x'.repeat(200) },
    }));
    expect((await dp(['batch'], { env, stdin: JSON.stringify(docs) })).code).toBe(0);
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'data', 'list', 'many', '--all', '--limit', '100'], {
        env,
      });
      let err = '';
      child.stderr.on('data', (chunk) => {
        err += chunk;
      });
      // Like `| head -1`: read one chunk, then close the pipe.
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('close', (exitCode) => resolve({ code: exitCode, stderr: err }));
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
