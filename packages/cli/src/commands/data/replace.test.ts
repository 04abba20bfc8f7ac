import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newReplaceCommand } from './replace.js';

describe('dp data replace: arguments', () => {
  it.each([
    { argv: ['orders', 'o-1', '{"a":1}'], options: { collection: 'orders', id: 'o-1', document: '{"a":1}' } },
    { argv: ['orders', 'o-1'], options: { collection: 'orders', id: 'o-1', document: undefined } },
  ])('$argv', async ({ argv, options }) => {
    const parsed = await parseArgs(newReplaceCommand, argv);
    expect(parsed.ok && parsed.options).toEqual(options);
  });

  it('refuses a missing id with exit status 2', async () => {
    expect(await parseArgs(newReplaceCommand, ['orders'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp data replace: run', () => {
  const api = useMockApi();

  it('replaces every field and keeps _id and _createdAt', async () => {
    const [before] = api.mocks.store.seed('orders', [{ _id: 'o-1', total: 1, note: 'x' }]);
    const result = await runCli(['data', 'replace', 'orders', 'o-1', '{"total":2}'], { env: api.env });
    expect(result.code).toBe(0);
    const after = JSON.parse(result.stdout);
    expect(after).toMatchObject({ _id: 'o-1', _createdAt: before!._createdAt, total: 2 });
    expect(after).not.toHaveProperty('note');
    expect(api.requests()).toEqual(['PUT /api/v1/data/orders/o-1']);
  });

  it('accepts a document as `get` printed it, system fields included', async () => {
    const [doc] = api.mocks.store.seed('orders', [{ _id: 'o-1', total: 1 }]);
    const result = await runCli(['data', 'replace', 'orders', 'o-1'], {
      env: api.env,
      stdin: JSON.stringify({ ...doc, total: 5 }),
    });
    expect(result.code).toBe(0);
    expect(api.mocks.store.collection('orders')).toEqual([expect.objectContaining({ _id: 'o-1', total: 5 })]);
  });

  it('refuses a document whose _id names another document, before sending', async () => {
    const result = await runCli(['data', 'replace', 'orders', 'o-1', '{"_id":"o-2","total":1}'], {
      env: api.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: the document's _id "o-2" is not "o-1", the id being replaced`);
    expect(api.requests()).toEqual([]);
  });

  it('exits with status 4 when the document does not exist', async () => {
    const result = await runCli(['data', 'replace', 'orders', 'nope', '{}'], { env: api.env });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('could not replace document "nope" of "orders": 404 not_found');
  });
});
