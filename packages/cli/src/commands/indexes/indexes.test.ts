import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newIndexesCreateCommand } from './create.js';
import { newIndexesDropCommand } from './drop.js';
import { newIndexesListCommand } from './list.js';

describe('dp indexes: arguments', () => {
  it('parses fields with their order, --unique and --name', async () => {
    expect(
      await parseArgs(newIndexesCreateCommand, [
        'orders',
        'customer',
        'total:desc',
        'a.b:asc',
        '--unique',
        '--name',
        'n',
      ]),
    ).toMatchObject({
      ok: true,
      options: {
        collection: 'orders',
        fields: [
          { path: 'customer', order: 'asc' },
          { path: 'total', order: 'desc' },
          { path: 'a.b', order: 'asc' },
        ],
        unique: true,
        name: 'n',
      },
    });
    expect(await parseArgs(newIndexesListCommand, ['orders'])).toMatchObject({
      options: { collection: 'orders' },
    });
    expect(await parseArgs(newIndexesDropCommand, ['orders', 'n'])).toMatchObject({
      options: { collection: 'orders', name: 'n' },
    });
  });

  it.each([
    [newIndexesCreateCommand, ['orders']],
    [newIndexesCreateCommand, ['orders', 'total:down']],
    [newIndexesListCommand, []],
    [newIndexesDropCommand, ['orders']],
  ] as const)('refuses bad arguments with exit status 2 (%#)', async (make, argv) => {
    expect(await parseArgs(make as never, [...argv])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp indexes: run', () => {
  const api = useMockApi();

  const signedIn = async () => (await api.signUp()).env;

  it('creates, lists and drops an index; a taken name is exit status 6', async () => {
    const env = await signedIn();
    const created = await runCli(['indexes', 'create', 'users', 'email', '--unique', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      kind: 'index.build',
      status: 'succeeded',
      input: { name: 'email_asc', fields: [{ path: 'email', order: 'asc' }], unique: true },
    });
    const taken = await runCli(['indexes', 'create', 'users', 'other', '--name', 'email_asc'], { env });
    expect(taken.code).toBe(6);

    const table = await runCli(['indexes', 'list', 'users'], { env, tty: { stdout: true, stderr: true } });
    expect(table.stdout).toMatch(/email_asc\s+email asc\s+yes\s+ready/);
    const json = await runCli(['indexes', 'list', 'users', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ data: [{ name: 'email_asc', unique: true }] });

    const dropped = await runCli(['indexes', 'drop', 'users', 'email_asc', '--json'], { env });
    expect(JSON.parse(dropped.stdout)).toEqual({ _id: 'email_asc', deleted: true });
    const missing = await runCli(['indexes', 'drop', 'users', 'email_asc'], { env });
    expect(missing.code).toBe(4);
    expect(api.requests()).toEqual([
      'POST /api/auth/signup',
      'POST /api/schema/collections/users/indexes',
      'POST /api/schema/collections/users/indexes',
      'GET /api/schema/collections/users/indexes',
      'GET /api/schema/collections/users/indexes',
      'DELETE /api/schema/collections/users/indexes/email_asc',
      'DELETE /api/schema/collections/users/indexes/email_asc',
    ]);
  });
});
