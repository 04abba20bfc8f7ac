import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dp } from './binary.js';
import { useReferenceServer } from './reference-server.js';

const reference = useReferenceServer();
const dir = mkdtempSync(join(tmpdir(), 'dp-e2e-functions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The binary's environment with a session of the development account: functions and triggers need one. */
async function sessionEnv(): Promise<Record<string, string>> {
  const { url, email, password } = reference();
  const res = await fetch(`${url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  const { token } = (await res.json()) as { token: string };
  return { ...reference().env(), DATAPLATFORM_TOKEN: token };
}

/** Deploys `code` from a file named after the function, with the binary. */
async function deployed(env: Record<string, string>, name: string, code: string): Promise<{ _id: string }> {
  const file = join(dir, `${name}.js`);
  writeFileSync(file, code);
  const result = await dp(['functions', 'deploy', file], { env });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as { _id: string };
}

async function until<T>(look: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('dp functions and dp triggers against the reference server', () => {
  it('deploys a file, deploys it again as version 2, invokes it and reads its logs', async () => {
    const env = await sessionEnv();
    const file = join(dir, 'greet.js');
    writeFileSync(
      file,
      "export default (input, ctx) => { ctx.log('greeting', input.name); return 'hi ' + input.name; };",
    );
    const first = await dp(['functions', 'deploy', file], { env });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const fn = JSON.parse(first.stdout) as { _id: string; name: string; version: number };
    expect(fn).toMatchObject({ name: 'greet', version: 1 });
    const second = await dp(['functions', 'deploy', file, '--timeout-ms', '2000'], { env });
    expect(JSON.parse(second.stdout)).toMatchObject({ _id: fn._id, version: 2, timeoutMs: 2000 });

    const invoked = await dp(['functions', 'invoke', fn._id, '{"name":"Ada"}'], { env });
    expect(invoked).toMatchObject({ code: 0 });
    expect(JSON.parse(invoked.stdout)).toBe('hi Ada');
    const full = await dp(['functions', 'invoke', fn._id, '-', '--json'], { env, stdin: '{"name":"Bo"}' });
    expect(JSON.parse(full.stdout)).toMatchObject({ result: 'hi Bo', logs: ['greeting Bo'] });

    const logs = await dp(['functions', 'logs', fn._id, '--json'], { env });
    const runs = JSON.parse(logs.stdout) as { status: string; logs: string[] }[];
    expect(runs.map((r) => [r.status, r.logs])).toEqual([
      ['ok', ['greeting Bo']],
      ['ok', ['greeting Ada']],
    ]);
  });

  it('refuses a file with a syntax error with a non-zero exit and the server message', async () => {
    const env = await sessionEnv();
    const file = join(dir, 'broken.js');
    writeFileSync(file, 'export default (input => {');
    const result = await dp(['functions', 'deploy', file], { env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/could not create function "broken": 400/);
  });

  it('creates a trigger, runs it by hand, lists its runs, pauses, resumes and deletes it', async () => {
    const env = await sessionEnv();
    const fn = await deployed(env, 'tick', 'export default (input) => input;');
    const created = await dp(
      ['triggers', 'create', '--name', 'nightly', '--function', fn._id, '--cron', '0 3 * * *'],
      { env },
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const trigger = JSON.parse(created.stdout) as { _id: string };
    expect(trigger).toMatchObject({
      name: 'nightly',
      active: true,
      source: { type: 'schedule', cron: '0 3 * * *' },
    });

    const listed = JSON.parse((await dp(['triggers', '--json'], { env })).stdout) as {
      data: { _id: string }[];
    };
    expect(listed.data.map((t) => t._id)).toContain(trigger._id);

    const run = await dp(['triggers', 'run', trigger._id], { env });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'queued', event: { manual: true } });
    const done = await until(async () => {
      const runs = JSON.parse((await dp(['triggers', 'runs', trigger._id], { env })).stdout) as {
        status: string;
      }[];
      return runs.find((r) => r.status !== 'queued');
    }, 'the manual run to end');
    expect(done.status).toBe('ok');

    expect(JSON.parse((await dp(['triggers', 'pause', trigger._id], { env })).stdout)).toMatchObject({
      active: false,
    });
    expect(JSON.parse((await dp(['triggers', 'resume', trigger._id], { env })).stdout)).toMatchObject({
      active: true,
    });
    const deleted = await dp(['triggers', 'delete', trigger._id, '--json'], { env });
    expect(JSON.parse(deleted.stdout)).toEqual({ _id: trigger._id, deleted: true });
    const gone = await dp(['triggers', 'get', trigger._id], { env });
    expect(gone.code).not.toBe(0);
  });

  it('refuses an invalid cron expression before anything is stored', async () => {
    const env = await sessionEnv();
    const fn = await deployed(env, 'never', 'export default () => 1;');
    const result = await dp(
      ['triggers', 'create', '--name', 'bad', '--function', fn._id, '--cron', 'every day'],
      {
        env,
      },
    );
    expect(result.code).not.toBe(0);
    const listed = JSON.parse((await dp(['triggers', '--json'], { env })).stdout) as {
      data: { name: string }[];
    };
    expect(listed.data.map((t) => t.name)).not.toContain('bad');
  });
});
