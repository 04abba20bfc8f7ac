import {
  checkCancel,
  checkDocumentBody,
  checkResume,
  DUPLICATE_ROW,
  type ImportFormat,
  type ImportJob,
  importFormat,
  inferCsvCell,
  JOB_CANCELLED,
  type Job,
  type JsonObject,
  jobNotFound,
  newImportJob,
  recordRowError,
  restartedJob,
  rowRefusedFailure,
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

/** The one cluster of the mock API's key holders. */
const CLUSTER_ID = 'cluster_mock';

interface MockJob {
  job: ImportJob;
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
      // As the server: an import's progress is the rows it read.
      job.progress = { done: ordinal, total: null };
      if (ordinal <= entry.storedRows) {
        job.counts.inserted++;
        continue;
      }
      let error = 'error' in row ? row.error : null;
      if (!error) {
        const violation = checkDocumentBody((row as { value: unknown }).value, { allowId: true });
        if (violation) error = { code: violation.code, message: violation.message };
        else if (!documents.insert(call.collection, (row as { value: JsonObject }).value)) {
          error = DUPLICATE_ROW;
        }
      }
      if (!error) {
        job.counts.inserted++;
        entry.storedRows = ordinal;
        continue;
      }
      recordRowError(job, { line: row.line, ...error });
      if (call.onError === 'abort') {
        return this.#finish(job, 'failed', rowRefusedFailure(job._id, row.line, error.message));
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
    if (!entry || (userId !== null && entry.userId !== userId)) throw ApiError.fromViolation(jobNotFound(id));
    return structuredClone(entry.job);
  }

  /** Cancels a queued or running job (the mocks' imports finish within their request: only seeded ones run). */
  cancel(id: string, userId: string): Job {
    this.get(id, userId);
    const { job } = this.#jobs.get(id)!;
    const refusal = checkCancel(id, job.status);
    if (refusal) throw ApiError.fromViolation(refusal);
    return this.#finish(job, 'cancelled', JOB_CANCELLED);
  }

  /** Keeps a finished job another area made (an index build, a validator check, a drop) for the jobs routes. */
  record(job: Job, userId: string | null): void {
    this.#jobs.set(job._id, { job: job as ImportJob, userId, storedRows: 0 });
  }

  /** Stores a job as given (a running import, say), owned by `userId` or by the key holders' cluster. */
  seed(fields: Partial<ImportJob>, userId: string | null): Job {
    const input = { collection: 'seeded', format: 'ndjson', onError: 'skip', infer: true } as const;
    const job: ImportJob = {
      _id: `job_${randomToken(12)}`,
      ...newImportJob(CLUSTER_ID, input, new Date().toISOString()),
      ...structuredClone(fields),
    };
    this.#jobs.set(job._id, { job, userId, storedRows: job.counts.rows });
    return structuredClone(job);
  }

  #create(call: ImportCall): MockJob {
    const { collection, onError, infer } = call;
    const format = importFormat(call.format, call.text);
    const job: ImportJob = {
      _id: `job_${randomToken(12)}`,
      ...newImportJob(CLUSTER_ID, { collection, format, onError, infer }, new Date().toISOString()),
    };
    const entry = { job, userId: call.userId, storedRows: 0 };
    this.#jobs.set(job._id, entry);
    return entry;
  }

  #resume(call: ImportCall): MockJob {
    const id = call.resume!;
    const found = this.#jobs.get(id);
    const entry = found && (call.userId === null || found.userId === call.userId) ? found : undefined;
    const refusal = checkResume(id, entry?.job, call.collection, Date.now());
    if (refusal) throw ApiError.fromViolation(refusal);
    Object.assign(entry!.job, restartedJob(new Date().toISOString()));
    return entry!;
  }

  #finish(job: Job, status: 'succeeded' | 'failed' | 'cancelled', failure: Job['failure']): Job {
    const now = new Date().toISOString();
    Object.assign(job, { status, failure, finishedAt: now, updatedAt: now });
    return structuredClone(job);
  }
}
