import { describe, expect, it } from 'vitest';
import { JOB_ERROR_LIMIT } from '../schemas/job.js';
import {
  checkCancel,
  checkResume,
  newImportJob,
  type ResumableJob,
  recordRowError,
  restartedJob,
  rowRefusedFailure,
  STALE_JOB_MS,
} from './jobs.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const job = (fields: Partial<ResumableJob> = {}): ResumableJob => ({
  kind: 'import',
  status: 'failed',
  updatedAt: new Date(NOW - 1000).toISOString(),
  input: { collection: 'orders' },
  ...fields,
});

describe('newImportJob', () => {
  it('starts running now with nothing counted, in NDJSON until the body shows its format', () => {
    const created = newImportJob(
      'cluster_1',
      { collection: 'orders', format: undefined, onError: 'skip', infer: true },
      '2026-03-01T12:00:00.000Z',
    );
    expect(created).toEqual({
      kind: 'import',
      status: 'running',
      clusterId: 'cluster_1',
      input: { collection: 'orders', format: 'ndjson', onError: 'skip', infer: true },
      counts: { rows: 0, inserted: 0, failed: 0 },
      bytes: 0,
      errors: [],
      failure: null,
      progress: { done: 0, total: null },
      result: null,
      createdAt: '2026-03-01T12:00:00.000Z',
      startedAt: '2026-03-01T12:00:00.000Z',
      updatedAt: '2026-03-01T12:00:00.000Z',
      finishedAt: null,
    });
  });
});

describe('checkResume', () => {
  it('lets a failed or cancelled import of the same collection resume', () => {
    expect(checkResume('job_1', job(), 'orders', NOW)).toBeNull();
    expect(checkResume('job_1', job({ status: 'cancelled' }), 'orders', NOW)).toBeNull();
  });

  it('answers 404 for a job the caller cannot see', () => {
    expect(checkResume('job_1', undefined, 'orders', NOW)).toEqual({
      code: 'not_found',
      message: 'Job "job_1" not found',
    });
  });

  it.each([
    [job(), 'invoices', 'imports into "orders", not "invoices"'],
    [job({ status: 'succeeded' }), 'orders', 'has finished; nothing is left to resume'],
    [job({ status: 'running' }), 'orders', 'is running; cancel it or wait'],
  ])('refuses with 409 %#', (found, collection, why) => {
    const violation = checkResume('job_1', found, collection, NOW);
    expect(violation?.code).toBe('conflict');
    expect(violation?.message).toContain(why);
  });

  it('lets a running job resume once its worker has not saved it for STALE_JOB_MS', () => {
    const stale = job({ status: 'running', updatedAt: new Date(NOW - STALE_JOB_MS).toISOString() });
    expect(checkResume('job_1', stale, 'orders', NOW)).toBeNull();
  });
});

describe('restartedJob', () => {
  it('starts a new run from nothing', () => {
    expect(restartedJob('t')).toEqual({
      status: 'running',
      startedAt: 't',
      counts: { rows: 0, inserted: 0, failed: 0 },
      bytes: 0,
      errors: [],
      failure: null,
      updatedAt: 't',
      finishedAt: null,
    });
  });
});

describe('checkCancel', () => {
  it('cancels only queued and running jobs', () => {
    expect(checkCancel('job_1', 'queued')).toBeNull();
    expect(checkCancel('job_1', 'running')).toBeNull();
    expect(checkCancel('job_1', 'succeeded')).toEqual({
      code: 'conflict',
      message: 'Job "job_1" has finished (succeeded); it cannot be cancelled',
    });
  });
});

describe('recordRowError', () => {
  it('counts every refused row and keeps the first JOB_ERROR_LIMIT', () => {
    const target = { counts: { failed: 0 }, errors: [] };
    for (let line = 1; line <= JOB_ERROR_LIMIT + 5; line++)
      recordRowError(target, { line, code: 'invalid_json', message: 'x' });
    recordRowError(target, { line: 999, code: 'invalid_json', message: 'x' }, false);
    expect(target.counts.failed).toBe(JOB_ERROR_LIMIT + 5);
    expect(target.errors).toHaveLength(JOB_ERROR_LIMIT);
  });
});

describe('rowRefusedFailure', () => {
  it('names the line and the way to go on', () => {
    expect(rowRefusedFailure('job_1', 3, 'bad')).toEqual({
      code: 'row_refused',
      message: 'Stopped at line 3: bad (onError=abort); fix the row and resume with resume=job_1',
    });
  });
});
