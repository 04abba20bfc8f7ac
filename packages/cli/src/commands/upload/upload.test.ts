import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Job } from '@dataplatform/sdk';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { paceText } from '../jobs/show.js';
import { sendingLine, sentLine } from './progress.js';
import { formatOfName } from './source.js';
import { newUploadCommand } from './upload.js';

const csv200 = `name,n\n${Array.from({ length: 200 }, (_, i) => `row ${i},${i}`).join('\n')}\n`;

function file(name: string, content: string | Buffer): string {
  const path = join(tempConfigDir(), name);
  writeFileSync(path, content);
  return path;
}

describe('dp upload: arguments', () => {
  it.each([
    {
      argv: ['a.ndjson', '--collection', 'orders'],
      options: { file: 'a.ndjson', collection: 'orders', infer: true, onError: 'skip' },
    },
    {
      argv: ['-', '-c', 'people', '--format', 'csv', '--no-infer', '--on-error', 'abort'],
      options: { file: '-', collection: 'people', format: 'csv', infer: false, onError: 'abort' },
    },
    {
      argv: ['a.csv', '-c', 'x', '--resume'],
      options: { file: 'a.csv', collection: 'x', infer: true, onError: 'skip', resume: true },
    },
    {
      argv: ['a.csv', '-c', 'x', '--resume', 'job_1'],
      options: { file: 'a.csv', collection: 'x', infer: true, onError: 'skip', resume: 'job_1' },
    },
  ])('$argv', async ({ argv, options }) => {
    const parsed = await parseArgs(newUploadCommand, argv);
    expect(parsed.ok && parsed.options).toEqual(options);
  });

  it.each([
    [['a.ndjson']],
    [['-c', 'x']],
    [['a', '-c', 'x', '--format', 'xml']],
    [['a', '-c', 'x', '--on-error', 'no']],
  ])('refuses %j with exit status 2', async (argv) => {
    expect(await parseArgs(newUploadCommand, argv)).toMatchObject({ ok: false, code: 2 });
  });

  it.each([
    ['orders.ndjson', 'ndjson', false],
    ['orders.JSONL', 'ndjson', false],
    ['dump.json.gz', 'json', true],
    ['people.csv', 'csv', false],
    ['data.gz', undefined, true],
    ['README', undefined, false],
  ])('reads the format of %s from its name', (name, format, gzip) => {
    expect(formatOfName(name)).toEqual({ format, gzip });
  });

  it.each([
    {
      why: "a file: bar, bytes sent, the rows in them, the bytes' pace and the time left to send",
      tally: { bytes: 25_000_000, rows: 250_000 },
      size: 100_000_000,
      line: 'sending  [######------------------] 25%  25.0 MB / 100.0 MB  250,000 rows  5.0 MB/s  15s left',
    },
    {
      why: 'standard input, gzipped: bytes alone',
      tally: { bytes: 2_500_000, rows: undefined },
      size: undefined,
      line: 'sending  2.5 MB  500.0 KB/s',
    },
  ])('draws the sending line for $why', ({ tally, size, line }) => {
    expect(sendingLine({ tally, size }, 5)).toBe(line);
  });

  it('says what was sent, then waits for the server', () => {
    const tally = { bytes: 5_300_000, rows: 200_000, sentAt: 0 };
    expect(sentLine(tally, 0.25)).toBe(
      'sent 5.3 MB, 200,000 rows in 250ms; waiting for the server to finish the import',
    );
    expect(sentLine(tally, 12.5, 3)).toBe(
      'sent 5.3 MB, 200,000 rows in 12.5s; waiting for the server to finish the import (3s)',
    );
  });

  it.each([
    {
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:03.125Z',
      pace: ' in 3.1s (64,000 rows/s, timed by the server)',
    },
    {
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:01:40.000Z',
      pace: ' in 1m 40s (2,000 rows/s, timed by the server)',
    },
    { startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:00.000Z', pace: '' },
    { startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null, pace: '' },
  ])(
    "reports the pace of 200,000 rows from $startedAt to $finishedAt by the job's timestamps",
    ({ startedAt, finishedAt, pace }) => {
      const job = { counts: { rows: 200_000, inserted: 200_000, failed: 0 }, startedAt, finishedAt } as Job;
      expect(paceText(job)).toBe(pace);
    },
  );
});

describe('dp upload: run', () => {
  const api = useMockApi();

  it('streams an NDJSON file into an import job and prints the job as JSON', async () => {
    const path = file('orders.ndjson', '{"n":1}\n{"n":2}\nnope\n');
    const result = await runCli(['upload', path, '-c', 'orders', '--json'], { env: api.env });
    expect(result.code).toBe(0);
    const job = JSON.parse(result.stdout);
    expect(job).toMatchObject({
      status: 'succeeded',
      input: { collection: 'orders', format: 'ndjson' },
      counts: { rows: 3, inserted: 2, failed: 1 },
      errors: [{ line: 3, code: 'invalid_json' }],
    });
    expect(result.stderr).toBe('');
    expect(api.mocks.store.collection('orders')).toHaveLength(2);
    expect(api.requests()).toEqual(['POST /api/v1/data/orders/import?format=ndjson&onError=skip&infer=true']);
  });

  it('reads CSV from standard input with --no-infer, and prints plain progress lines when not on a terminal', async () => {
    const result = await runCli(['upload', '-', '-c', 'people', '--format', 'csv', '--no-infer'], {
      env: api.env,
      stdin: 'name,age\nada,36\n',
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'succeeded', counts: { inserted: 1 } });
    expect(api.mocks.store.collection('people')).toMatchObject([{ name: 'ada', age: '36' }]);
    expect(result.stderr).toMatch(
      /^sent 16 B, 1 rows in \S+; waiting for the server to finish the import\nimported 1 rows: 1 stored, 0 refused into "people"/,
    );
    expect(api.requests()).toEqual(['POST /api/v1/data/people/import?format=csv&onError=skip&infer=false']);
  });

  it.each([
    { name: 'people.csv', text: csv200, rows: 200 },
    { name: 'crlf.csv', text: 'a,b\r\n1,2\r\n\r\n"x\r\ny",3\r\nshort', rows: 3 },
    { name: 'events.ndjson', text: '{"n":1}\n\n  \n{"n":2}\nnope', rows: 3 },
    { name: 'list.json', text: '[{"n":1},\n {"n":2,"s":"],"}]\n', rows: 2 },
    { name: 'unnamed', text: '\uFEFFa\n1\n\n2\n', rows: 2 },
  ])(
    'counts the rows of $name as the job does, and ends with what the job says',
    async ({ name, text, rows }) => {
      const path = file(name, text);
      const result = await runCli(['upload', path, '-c', 'counted'], { env: api.env });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).counts.rows).toBe(rows);
      // A loaded machine may show a progress line ("sending … 100%") before the file is all sent.
      const lines = result.stderr.split('\n').filter((l) => !l.startsWith('sending '));
      const [sent, imported, ...rest] = lines;
      expect(sent).toMatch(
        new RegExp(`^sent [\\d.]+ K?B, ${rows} rows in \\S+; waiting for the server to finish the import$`),
      );
      expect(imported).toMatch(
        new RegExp(`^imported ${rows} rows: \\d+ stored, \\d+ refused into "counted"`),
      );
      expect(rest).toEqual(['']);
    },
  );

  it('sends a .gz file as gzip and shows the job on a terminal', async () => {
    const path = file('rows.ndjson.gz', gzipSync('{"n":1}\n{"n":2}\n'));
    const result = await runCli(['upload', path, '-c', 'rows'], {
      env: { ...api.env, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Status:     succeeded');
    expect(result.stdout).toContain('Counts:     2 rows: 2 stored, 0 refused');
    expect(result.stderr).toContain('✓ 2 rows: 2 stored, 0 refused into "rows"');
    expect(api.mocks.store.collection('rows')).toHaveLength(2);
  });

  it('exits with status 1 when the job failed, with the command that resumes it; --resume finds the job', async () => {
    const path = file('o.ndjson', '{"n":1}\n{"n":\n{"n":3}\n');
    const failed = await runCli(['upload', path, '-c', 'o', '--on-error', 'abort'], { env: api.env });
    expect(failed.code).toBe(1);
    const job = JSON.parse(failed.stdout);
    expect(failed.stderr).toContain(
      `error: job ${job._id} failed after 2 rows: 1 stored, 1 refused (row_refused`,
    );
    expect(failed.stderr).toContain(`--resume ${job._id}`);
    writeFileSync(path, '{"n":1}\n{"n":2}\n{"n":3}\n');
    const resumed = await runCli(['upload', path, '-c', 'o', '--resume'], { env: api.env });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      _id: job._id,
      status: 'succeeded',
      counts: { inserted: 3 },
    });
    expect(api.mocks.store.collection('o').map((d) => d.n)).toEqual([1, 2, 3]);
    expect(api.requests().slice(1)).toEqual([
      'GET /api/v1/data/jobs?limit=100',
      `POST /api/v1/data/o/import?format=ndjson&onError=skip&infer=true&resume=${job._id}`,
    ]);
  });

  it('refuses a missing file and --resume with nothing to resume, before uploading', async () => {
    const missing = await runCli(['upload', '/nonexistent.ndjson', '-c', 'x'], { env: api.env });
    expect([missing.code, missing.stderr]).toEqual([
      2,
      'error: could not read /nonexistent.ndjson: no such file\n',
    ]);
    const nothing = await runCli(['upload', file('a.ndjson', '{}'), '-c', 'x', '--resume'], { env: api.env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('no unfinished import into "x" to resume');
    expect(api.requests()).toEqual(['GET /api/v1/data/jobs?limit=100']);
  });
});
