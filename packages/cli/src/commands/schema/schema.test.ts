import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newSchemaCheckCommand } from './check.js';
import { newSchemaDropCommand } from './drop.js';
import { newSchemaGetCommand } from './get.js';
import { newSchemaInferCommand } from './infer.js';
import { newSchemaListCommand } from './list.js';
import { newSchemaRemoveCommand } from './remove.js';
import { newSchemaSetCommand } from './set.js';

describe('dp schema: arguments', () => {
  it('parses every verb', async () => {
    expect(await parseArgs(newSchemaListCommand, [])).toMatchObject({ ok: true, options: {} });
    expect(await parseArgs(newSchemaGetCommand, ['orders'])).toMatchObject({
      options: { collection: 'orders' },
    });
    expect(await parseArgs(newSchemaSetCommand, ['orders', 's.json', '--level', 'off'])).toMatchObject({
      ok: true,
      options: { collection: 'orders', schema: 's.json', level: 'off' },
    });
    expect(await parseArgs(newSchemaRemoveCommand, ['orders'])).toMatchObject({
      options: { collection: 'orders' },
    });
    expect(await parseArgs(newSchemaCheckCommand, ['orders', '--wait'])).toMatchObject({
      options: { collection: 'orders', wait: true, interval: 1000 },
    });
    expect(await parseArgs(newSchemaInferCommand, ['orders', '--sample', '10'])).toMatchObject({
      options: { collection: 'orders', sample: 10 },
    });
    expect(await parseArgs(newSchemaDropCommand, ['orders', '--yes'])).toMatchObject({
      options: { collection: 'orders', yes: true },
    });
  });

  it.each([
    [newSchemaGetCommand, []],
    [newSchemaSetCommand, ['orders']],
    [newSchemaSetCommand, ['orders', 's.json', '--level', 'loose']],
    [newSchemaInferCommand, ['orders', '--sample', '0']],
    [newSchemaInferCommand, ['orders', '--sample', '1001']],
    [newSchemaCheckCommand, ['orders', '--interval', '1']],
  ] as const)('refuses bad arguments with exit status 2 (%#)', async (make, argv) => {
    expect(await parseArgs(make as never, [...argv])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp schema: run', () => {
  const api = useMockApi();

  const signedIn = async () => (await api.signUp()).env;

  it('infers a schema into a file, sets it from the file, reads it back and removes it', async () => {
    api.mocks.store.seed('orders', [
      { _id: 'o1', total: 3, customer: 'ada' },
      { _id: 'o2', total: 4.5 },
    ]);
    const env = await signedIn();
    const inferred = await runCli(['schema', 'infer', 'orders', '--sample', '50'], { env });
    expect(inferred.code, inferred.stderr).toBe(0);
    const schema = JSON.parse(inferred.stdout);
    expect(schema).toEqual({
      type: 'object',
      properties: { total: { type: 'number' }, customer: { type: 'string' } },
      required: ['total'],
    });
    const file = join(mkdtempSync(join(tmpdir(), 'dp-schema-')), 's.json');
    writeFileSync(file, inferred.stdout);

    const set = await runCli(['schema', 'set', 'orders', file, '--level', 'off'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ collection: 'orders', level: 'off', schema });
    const got = await runCli(['schema', 'get', 'orders'], { env });
    expect(JSON.parse(got.stdout)).toMatchObject({ level: 'off', schema });
    writeFileSync(file, got.stdout);
    const again = await runCli(['schema', 'set', 'orders', file, '--json'], { env });
    expect(JSON.parse(again.stdout), 'a validator printed by get keeps its level').toMatchObject({
      level: 'off',
    });

    const removed = await runCli(['schema', 'remove', 'orders', '--json'], { env });
    expect(JSON.parse(removed.stdout)).toEqual({ collection: 'orders', deleted: true });
    const gone = await runCli(['schema', 'get', 'orders'], { env });
    expect(gone.code).toBe(4);
    expect(api.requests()).toEqual([
      'POST /api/auth/signup',
      'GET /api/schema/collections/orders/infer?sample=50',
      'PUT /api/schema/collections/orders/validator',
      'GET /api/schema/collections/orders/validator',
      'PUT /api/schema/collections/orders/validator',
      'DELETE /api/schema/collections/orders/validator',
      'GET /api/schema/collections/orders/validator',
    ]);
    expect(readFileSync(file, 'utf8')).toContain('"level"');
  });

  it('lists collections: a table on a terminal, a JSON line each when piped; --cluster is sent as clusterId', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o1', total: 3 }]);
    const env = await signedIn();
    await runCli(['schema', 'set', 'orders', '{"type":"object"}'], { env });
    const table = await runCli(['schema'], { env, tty: { stdout: true, stderr: true } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/orders\s+1\s+\S+.*strict/);
    const piped = await runCli(['schema', 'list'], { env });
    expect(JSON.parse(piped.stdout.trim().split('\n')[0]!)).toMatchObject({
      name: 'orders',
      documentCount: 1,
    });
    const elsewhere = await runCli(['--cluster', 'cls_nope', 'schema', 'list'], { env });
    expect(elsewhere.code).toBe(4);
    expect(api.requests()).toContain('GET /api/schema/collections?clusterId=cls_nope');
  });

  it('reads with an API key under /api/v1/schema', async () => {
    api.mocks.store.seed('events', [{ _id: 'e1', kind: 'click' }]);
    const listed = await runCli(['schema', 'list', '--json'], { env: api.env });
    expect(listed.code, listed.stderr).toBe(0);
    const inferred = await runCli(['schema', 'infer', 'events', '--json'], { env: api.env });
    expect(JSON.parse(inferred.stdout)).toMatchObject({ collection: 'events', sampled: 1 });
    expect(api.requests()).toEqual([
      'GET /api/v1/schema/collections',
      'GET /api/v1/schema/collections/events/infer',
    ]);
  });

  it('checks the stored documents: the job, or with --wait the failing ones and exit status 1', async () => {
    api.mocks.store.seed('users', [
      { _id: 'u1', email: 'a@example.com' },
      { _id: 'u2', name: 'no e-mail' },
    ]);
    const env = await signedIn();
    await runCli(['schema', 'set', 'users', '{"type":"object","required":["email"]}'], { env });
    const started = await runCli(['schema', 'check', 'users', '--json'], { env });
    expect(started.code, started.stderr).toBe(0);
    expect(JSON.parse(started.stdout)).toMatchObject({
      kind: 'validator.check',
      input: { collection: 'users' },
    });

    const waited = await runCli(['schema', 'check', 'users', '--wait'], {
      env,
      tty: { stdout: true, stderr: true },
    });
    expect(waited.code).toBe(1);
    expect(waited.stdout).toContain('Checked 2 documents: 1 do not match');
    expect(waited.stdout).toMatch(/u2\s+\/email\s+must have required property 'email'/);
    expect(waited.stderr).toContain('1 of 2 documents of "users" do not match its validator');

    const json = await runCli(['schema', 'check', 'users', '--wait', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'succeeded',
      result: { checked: 2, failing: 1 },
    });

    await runCli(['data', 'delete', 'users', 'u2', '--yes'], { env });
    const clean = await runCli(['schema', 'check', 'users', '--wait', '--json'], { env });
    expect(clean.code, clean.stderr).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ result: { checked: 1, failing: 0, samples: [] } });
    expect(api.requests().filter((r) => r.includes('/check'))).toHaveLength(4);
  });

  it('drops a collection only when confirmed', async () => {
    api.mocks.store.seed('scratch', [{ _id: 's1' }]);
    const env = await signedIn();
    const refused = await runCli(['schema', 'drop', 'scratch'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    const dropped = await runCli(['schema', 'drop', 'scratch', '--yes', '--json'], { env });
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(JSON.parse(dropped.stdout)).toMatchObject({
      kind: 'collection.drop',
      input: { collection: 'scratch' },
    });
    const again = await runCli(['schema', 'drop', 'scratch', '--yes'], { env });
    expect(again.code).toBe(4);
    expect(api.requests()).toEqual([
      'POST /api/auth/signup',
      'DELETE /api/schema/collections/scratch',
      'DELETE /api/schema/collections/scratch',
    ]);
  });
});
