import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newKeyActionCommand } from './change.js';
import { newKeysCreateCommand } from './create.js';
import { newKeysListCommand } from './list.js';
import { newKeysUsageCommand } from './usage.js';

describe('dp keys: arguments', () => {
  it('parses create, the actions and usage', async () => {
    expect(
      await parseArgs(newKeysCreateCommand, [
        '--name',
        'CI',
        '--scope',
        'data:read',
        '--scope',
        'data:write',
        '--expires',
        '90d',
      ]),
    ).toMatchObject({
      ok: true,
      options: { name: 'CI', scope: ['data:read', 'data:write'], expires: '90d' },
    });
    expect(await parseArgs(newKeysListCommand, [])).toMatchObject({ ok: true });
    for (const action of ['pause', 'resume', 'rotate', 'delete'] as const) {
      expect(await parseArgs((f, run) => newKeyActionCommand(action, f, run), ['k1'])).toMatchObject({
        ok: true,
        options: { id: 'k1' },
      });
    }
    expect(await parseArgs(newKeysUsageCommand, ['k1', '--outcome', 'denied', '--limit', '5'])).toMatchObject(
      {
        ok: true,
        options: { id: 'k1', outcome: 'denied', limit: 5 },
      },
    );
  });

  it.each([
    [newKeysCreateCommand, ['--scope', 'data:read']],
    [newKeysCreateCommand, ['--name', 'x']],
    [newKeysCreateCommand, ['--name', 'x', '--scope', 'data:read', '--expires', '2d']],
    [
      newKeysCreateCommand,
      ['--name', 'x', '--scope', 'data:read', '--expires', '30d', '--expires-at', '2099-01-01T00:00:00Z'],
    ],
    [newKeysUsageCommand, ['k1', '--outcome', 'maybe']],
    [newKeysUsageCommand, []],
  ] as const)('refuses bad arguments with exit status 2 (%#)', async (make, argv) => {
    expect(await parseArgs(make as never, [...argv])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp keys: run', () => {
  const api = useMockApi();

  async function signedIn() {
    const res = await fetch(`${api.env.DATAPLATFORM_BASE_URL}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'correct horse battery', name: 'Ada' }),
    });
    const body = (await res.json()) as { token: string };
    return { DATAPLATFORM_BASE_URL: api.env.DATAPLATFORM_BASE_URL!, DATAPLATFORM_TOKEN: body.token };
  }

  const withKey = (secret: string) => ({
    DATAPLATFORM_BASE_URL: api.env.DATAPLATFORM_BASE_URL!,
    DATAPLATFORM_API_KEY: secret,
  });

  it('creates a key whose printed secret works, then pauses, resumes, rotates and deletes it', async () => {
    const env = await signedIn();
    const created = await runCli(['keys', 'create', '--name', 'CI', '--scope', 'data:read'], { env });
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^svc_/);
    // Piped, the secret alone; on a terminal a note on standard error says it is shown once.
    expect(created.stderr).toBe('');
    const onTerminal = await runCli(['keys', 'create', '--name', 'tty', '--scope', 'data:read'], {
      env: { ...env, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(onTerminal.stderr).toContain('the secret above is shown only once');
    expect((await runCli(['data', 'list', 'orders'], { env: withKey(secret) })).code).toBe(0);

    const listed = await runCli(['keys', '--json'], { env });
    const key = JSON.parse(listed.stdout).data.find((k: { name: string }) => k.name === 'CI');
    expect(key).toMatchObject({ name: 'CI', status: 'active', scopes: ['data:read'] });
    expect(listed.stdout).not.toContain(secret);

    const paused = await runCli(['keys', 'pause', key._id, '--json'], { env });
    expect(JSON.parse(paused.stdout).status).toBe('paused');
    expect((await runCli(['data', 'list', 'orders'], { env: withKey(secret) })).code).toBe(3);
    expect((await runCli(['keys', 'rotate', key._id], { env })).code).toBe(6);
    expect((await runCli(['keys', 'resume', key._id], { env })).code).toBe(0);

    const rotated = await runCli(['keys', 'rotate', key._id, '--json'], { env });
    const fresh = JSON.parse(rotated.stdout).secret as string;
    expect((await runCli(['data', 'list', 'orders'], { env: withKey(secret) })).code).toBe(3);
    expect((await runCli(['data', 'list', 'orders'], { env: withKey(fresh) })).code).toBe(0);

    const deleted = await runCli(['keys', 'delete', key._id, '--json'], { env });
    expect(JSON.parse(deleted.stdout)).toEqual({ _id: key._id, deleted: true });
    expect((await runCli(['data', 'list', 'orders'], { env: withKey(fresh) })).code).toBe(3);
    expect((await runCli(['keys', 'delete', key._id], { env })).code).toBe(4);
  });

  it('shows usage: a table on a terminal, JSON lines when piped, filtered by outcome', async () => {
    const env = await signedIn();
    const secret = (
      await runCli(['keys', 'create', '--name', 'u', '--scope', 'data:read'], { env })
    ).stdout.trim();
    const [key] = JSON.parse((await runCli(['keys', '--json'], { env })).stdout).data;
    await runCli(['data', 'list', 'orders'], { env: withKey(secret) });
    await runCli(['data', 'insert', 'orders', '{"a":1}'], { env: withKey(secret) });
    const piped = await runCli(['keys', 'usage', key._id], { env });
    expect(
      piped.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).outcome),
    ).toEqual(['denied', 'success']);
    const table = await runCli(['keys', 'usage', key._id, '--outcome', 'denied'], {
      env: { ...env, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(table.stdout.split('\n')[0]).toMatch(/^time\s+outcome\s+status\s+method\s+path\s+ip$/);
    expect(table.stdout).toContain('denied   403     POST    /api/v1/data/orders');
    expect(table.stderr).toBe('Showing 1 of 1 entries\n');
  });

  it('with an API key the server asks for a session (status 3); a key not yours is status 4', async () => {
    expect((await runCli(['keys'], { env: api.env })).code).toBe(3);
    const env = await signedIn();
    expect((await runCli(['keys', 'pause', 'nope'], { env })).code).toBe(4);
  });
});
