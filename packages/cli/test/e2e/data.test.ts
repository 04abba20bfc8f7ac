import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../harness.js';
import { dp } from './binary.js';
import { useReferenceServer } from './reference-server.js';

const reference = useReferenceServer();

describe('dp data against the reference server', () => {
  it('inserts, reads, updates, replaces and deletes a document, printing JSON a script can read', async () => {
    const env = reference().env();
    const inserted = await dp(['data', 'insert', 'orders', '{"_id":"o-1","customer":"ada","total":42}'], {
      env,
    });
    expect(inserted).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(inserted.stdout)).toMatchObject({ _id: 'o-1', customer: 'ada', total: 42 });

    const fetched = await dp(['data', 'get', 'orders', 'o-1'], { env });
    expect(fetched.code).toBe(0);
    expect(JSON.parse(fetched.stdout)).toEqual(JSON.parse(inserted.stdout));

    const updated = await dp(['data', 'update', 'orders', 'o-1'], {
      env,
      stdin: '{"status":"paid","total":null}',
    });
    expect(updated.code).toBe(0);
    const patched = JSON.parse(updated.stdout);
    expect(patched).toMatchObject({ _id: 'o-1', customer: 'ada', status: 'paid' });
    expect(patched).not.toHaveProperty('total');

    // What `get` printed goes back through `replace`: the system fields are dropped, the rest replaces the document.
    const replaced = await dp(['data', 'replace', 'orders', 'o-1', '-'], {
      env,
      stdin: JSON.stringify({ ...patched, customer: 'grace' }),
    });
    expect(replaced.code).toBe(0);
    expect(JSON.parse(replaced.stdout)).toMatchObject({ _id: 'o-1', customer: 'grace', status: 'paid' });

    const deleted = await dp(['data', 'delete', 'orders', 'o-1', '--json', '--yes'], { env });
    expect(deleted).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(deleted.stdout)).toEqual({ _id: 'o-1', deleted: true });

    const gone = await dp(['data', 'get', 'orders', 'o-1'], { env });
    expect(gone.code).toBe(4);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toContain('error: could not get document "o-1" of "orders": 404 not_found');
    expect(gone.stderr).toMatch(/request id: \S+/);
  });

  it('reads a document from a file given as @path', async () => {
    const env = reference().env();
    const file = join(tempConfigDir(), 'order.json');
    writeFileSync(file, '{"_id":"from-file","total":7}');
    const result = await dp(['data', 'insert', 'files', `@${file}`], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ _id: 'from-file', total: 7 });
  });

  it('lists one page as JSON lines when piped, and every page with --all --json', async () => {
    const env = reference().env();
    const operations = Array.from({ length: 25 }, (_, i) => ({
      op: 'insert',
      collection: 'pages',
      data: { _id: `p${String(i).padStart(2, '0')}`, n: i },
    }));
    const batch = await dp(['batch', '-', '--transaction', '--json'], {
      env,
      stdin: JSON.stringify(operations),
    });
    expect(batch.code).toBe(0);
    expect(JSON.parse(batch.stdout).results).toHaveLength(25);

    const page = await dp(['data', 'list', 'pages', '--sort', '-n', '--limit', '3'], { env });
    expect(page.code).toBe(0);
    expect(
      page.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).n),
    ).toEqual([24, 23, 22]);

    const all = await dp(['data', 'list', 'pages', '--all', '--limit', '10', '--sort', 'n', '--json'], {
      env,
    });
    expect(all.code).toBe(0);
    const listed = JSON.parse(all.stdout);
    expect(listed.total).toBe(25);
    expect(listed.data.map((d: { n: number }) => d.n)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('refuses malformed JSON before sending anything, with exit status 2', async () => {
    const result = await dp(['data', 'insert', 'orders', '{"total":'], { env: reference().env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the document from the argument is not valid JSON');
  });

  it('exits with status 3 and names the fix when the server refuses the key', async () => {
    const env = { ...reference().env(), DATAPLATFORM_API_KEY: 'svc_not_a_real_key' };
    const result = await dp(['data', 'list', 'orders'], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('could not list documents of "orders": 401 unauthorized');
    expect(result.stderr).toContain(
      'hint: the server does not know this credential (the API key from DATAPLATFORM_API_KEY)',
    );
  });

  it('exits with status 5 and names the missing scope for a read-only key', async () => {
    const readOnly = await reference().addKey(['data:read']);
    const env = { ...reference().env(), DATAPLATFORM_API_KEY: readOnly };
    const result = await dp(['data', 'insert', 'orders', '{"total":1}', '--json'], { env });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    const { error } = JSON.parse(result.stderr);
    expect(error).toMatchObject({
      operation: 'insert a document into "orders"',
      status: 403,
      code: 'insufficient_scope',
      exitCode: 5,
      hint: 'use a key that holds the data:write scope',
    });
    expect(error.requestId).toEqual(expect.any(String));
  });

  it('exits with status 7 and names the address when no server answers', async () => {
    const env = { ...reference().env(), DATAPLATFORM_BASE_URL: 'http://127.0.0.1:9' };
    const result = await dp(['data', 'list', 'orders'], { env });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(
      'could not list documents of "orders": no connection to http://127.0.0.1:9',
    );
    expect(result.stderr).toContain('is the server running at http://127.0.0.1:9?');
  });
});
