import {
  checkDocumentBody,
  type ImportFormat,
  inferCsvCell,
  JOB_ERROR_LIMIT,
  type Job,
  type JobRowError,
  type JsonObject,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import type { DocumentStore } from './document-store.js';
import { randomToken } from './ids.js';

type Row = { line: number; value: unknown } | { line: number; error: { code: string; message: string } };

function jsonRow(text: string, line: number): Row {
  try {
    return { line, value: JSON.parse(text) };
  } catch (error) {
    return { line, error: { code: 'invalid_json', message: (error as Error).message } };
  }
}

function ndjsonRows(text: string): Row[] {
  const rows: Row[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() !== '') rows.push(jsonRow(line, index + 1));
  });
  return rows;
}

/** A JSON array: the mocks read it whole, with each element's line found from where it starts. */
function jsonArrayRows(text: string): Row[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SourceFailure('invalid_json', (error as Error).message);
  }
  if (!Array.isArray(parsed)) throw new SourceFailure('invalid_json', 'The body is not a JSON array');
  return parsed.map((value, index) => ({ line: index + 1, value }));
}

/**
 * RFC 4180 records with the line each starts on, split as the server's csv-parse splits them: the first line break
 * outside quotes (`\r\n`, `\n` or `\r`) is the only record delimiter from then on; a quote opens only an empty
 * cell and closes it only before a comma, a delimiter or the end; a record of one empty cell is no record.
 */
function csvRecords(text: string): { line: number; cells: string[] }[] {
  const records: { line: number; cells: string[] }[] = [];
  let delimiter: string | undefined;
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const endsCell = (i: number) =>
    i >= text.length ||
    text[i] === ',' ||
    (delimiter === undefined ? text[i] === '\n' || text[i] === '\r' : text.startsWith(delimiter, i));
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        if (!endsCell(i + 1))
          throw new SourceFailure(
            'invalid_csv',
            `Line ${line}: a closing quote is followed by more of the cell`,
          );
        quoted = false;
      } else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (delimiter === undefined && (c === '\n' || c === '\r'))
      delimiter = c === '\r' && text[i + 1] === '\n' ? '\r\n' : c;
    if (delimiter !== undefined && text.startsWith(delimiter, i)) {
      i += delimiter.length - 1;
      cells.push(cell);
      records.push({ line: start, cells });
      cells = [];
      cell = '';
      start = ++line;
    } else if (c === '"') {
      if (cell !== '')
        throw new SourceFailure(
          'invalid_csv',
          `Line ${line}: a quote inside a cell that does not start with one`,
        );
      quoted = true;
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  if (quoted) throw new SourceFailure('invalid_csv', 'A quoted cell is not closed');
  if (cell !== '' || cells.length > 0) records.push({ line: start, cells: [...cells, cell] });
  return records.filter((r) => !(r.cells.length === 1 && r.cells[0] === ''));
}

function csvRows(text: string, infer: boolean): Row[] {
  const [header, ...records] = csvRecords(text.replace(/^\uFEFF/, ''));
  if (!header) return [];
  return records.map(({ line, cells }): Row => {
    if (cells.length !== header.cells.length) {
      return {
        line,
        error: {
          code: 'invalid_row',
          message: `The row has ${cells.length} cells; the header names ${header.cells.length} fields`,
        },
      };
    }
    const value: Record<string, unknown> = {};
    header.cells.forEach((name, i) => {
      Object.defineProperty(value, name, {
        value: infer ? inferCsvCell(cells[i]!) : cells[i],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    });
    return { line, value };
  });
}

class SourceFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What one import call asks for, validated. */
export interface ImportCall {
  collection: string;
  text: string;
  format: ImportFormat | undefined;
  onError: 'skip' | 'abort';
  infer: boolean;
  resume: string | undefined;
  /** The signed-in user who started it, or null for an API key. */
  userId: string | null;
}

interface MockJob {
  job: Job;
  userId: string | null;
  /** Rows of the source stored so far: a resume passes them. */
  storedRows: number;
}

/**
 * Jobs of the mock API, and imports run synchronously in memory with the server's rules: rows stored in source
 * order, bad rows reported by line and skipped or stopping the import, and a resume passing the rows stored.
 */
export class JobLedger {
  readonly #jobs = new Map<string, MockJob>();

  clear(): void {
    this.#jobs.clear();
  }

  run(call: ImportCall, documents: DocumentStore): Job {
    const entry = call.resume ? this.#resume(call) : this.#create(call);
    const { job } = entry;
    job.bytes = new TextEncoder().encode(call.text).byteLength;
    job.counts = { rows: 0, inserted: 0, failed: 0 };
    job.errors = [];
    const refuse = (error: JobRowError) => {
      job.counts.failed++;
      if (job.errors.length < JOB_ERROR_LIMIT) job.errors.push(error);
    };
    let rows: Row[];
    try {
      const format = job.input.format;
      rows =
        format === 'csv'
          ? csvRows(call.text, call.infer)
          : format === 'json'
            ? jsonArrayRows(call.text)
            : ndjsonRows(call.text);
    } catch (error) {
      const failure = error as SourceFailure;
      return this.#finish(job, 'failed', { code: failure.code, message: failure.message });
    }
    let ordinal = 0;
    for (const row of rows) {
      ordinal++;
      job.counts.rows = ordinal;
      if (ordinal <= entry.storedRows) {
        job.counts.inserted++;
        continue;
      }
      let error = 'error' in row ? row.error : null;
      if (!error) {
        const violation = checkDocumentBody((row as { value: unknown }).value, { allowId: true });
        if (violation) error = { code: violation.code, message: violation.message };
        else if (!documents.insert(call.collection, (row as { value: JsonObject }).value)) {
          error = { code: 'conflict', message: 'A document with this _id already exists in the collection' };
        }
      }
      if (!error) {
        job.counts.inserted++;
        entry.storedRows = ordinal;
        continue;
      }
      refuse({ line: row.line, ...error });
      if (call.onError === 'abort') {
        return this.#finish(job, 'failed', {
          code: 'row_refused',
          message: `Stopped at line ${row.line}: ${error.message} (onError=abort); fix the row and resume with resume=${job._id}`,
        });
      }
      entry.storedRows = ordinal;
    }
    return this.#finish(job, 'succeeded', null);
  }

  list(userId: string | null, limit: number, skip: number) {
    const all = [...this.#jobs.values()]
      .filter((entry) => userId === null || entry.userId === userId)
      .map((entry) => entry.job)
      .reverse();
    return { data: structuredClone(all.slice(skip, skip + limit)), total: all.length, limit, skip };
  }

  /** A job the caller may see (a signed-in user sees their own); 404 otherwise. */
  get(id: string, userId: string | null): Job {
    const entry = this.#jobs.get(id);
    if (!entry || (userId !== null && entry.userId !== userId))
      throw new ApiError('not_found', `Job "${id}" not found`);
    return structuredClone(entry.job);
  }

  /** Cancels a queued or running job (the mocks' imports finish within their request: only seeded ones run). */
  cancel(id: string, userId: string): Job {
    this.get(id, userId);
    const { job } = this.#jobs.get(id)!;
    if (job.status !== 'queued' && job.status !== 'running')
      throw new ApiError('conflict', `Job "${id}" has finished (${job.status}); it cannot be cancelled`);
    return this.#finish(job, 'cancelled', { code: 'cancelled', message: 'The job was cancelled' });
  }

  /** Stores a job as given (a running import, say), owned by `userId` or by the key holders' cluster. */
  seed(fields: Partial<Job>, userId: string | null): Job {
    const now = new Date().toISOString();
    const job: Job = {
      _id: `job_${randomToken(12)}`,
      kind: 'import',
      status: 'running',
      clusterId: 'cluster_mock',
      input: { collection: 'seeded', format: 'ndjson', onError: 'skip', infer: true },
      counts: { rows: 0, inserted: 0, failed: 0 },
      bytes: 0,
      errors: [],
      failure: null,
      createdAt: now,
      startedAt: now,
      updatedAt: now,
      finishedAt: null,
      ...structuredClone(fields),
    };
    this.#jobs.set(job._id, { job, userId, storedRows: job.counts.rows });
    return structuredClone(job);
  }

  #create(call: ImportCall): MockJob {
    const now = new Date().toISOString();
    const format = call.format ?? sniff(call.text);
    const job: Job = {
      _id: `job_${randomToken(12)}`,
      kind: 'import',
      status: 'running',
      clusterId: 'cluster_mock',
      input: { collection: call.collection, format, onError: call.onError, infer: call.infer },
      counts: { rows: 0, inserted: 0, failed: 0 },
      bytes: 0,
      errors: [],
      failure: null,
      createdAt: now,
      startedAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    const entry = { job, userId: call.userId, storedRows: 0 };
    this.#jobs.set(job._id, entry);
    return entry;
  }

  #resume(call: ImportCall): MockJob {
    const id = call.resume!;
    const entry = this.#jobs.get(id);
    if (!entry || (call.userId !== null && entry.userId !== call.userId))
      throw new ApiError('not_found', `Job "${id}" not found`);
    if (entry.job.input.collection !== call.collection)
      throw new ApiError(
        'conflict',
        `Job "${id}" imports into "${entry.job.input.collection}", not "${call.collection}"`,
      );
    if (entry.job.status === 'succeeded')
      throw new ApiError('conflict', `Job "${id}" has finished; nothing is left to resume`);
    // A resume is a new run: startedAt is when it began, so the job's timestamps time this run alone.
    Object.assign(entry.job, { status: 'running', startedAt: new Date().toISOString(), finishedAt: null });
    return entry;
  }

  #finish(job: Job, status: 'succeeded' | 'failed' | 'cancelled', failure: Job['failure']): Job {
    const now = new Date().toISOString();
    Object.assign(job, { status, failure, finishedAt: now, updatedAt: now });
    return structuredClone(job);
  }
}

function sniff(text: string): ImportFormat {
  const c = text.replace(/^\uFEFF/, '').trimStart()[0];
  return c === '[' ? 'json' : c === '{' ? 'ndjson' : 'csv';
}
