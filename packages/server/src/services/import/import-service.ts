import {
  checkDocumentBody,
  checkResume,
  DUPLICATE_ROW,
  IDEMPOTENCY_WINDOW_MS,
  type ImportFormat,
  importFormat,
  JOB_ERROR_LIMIT,
  type JobRowError,
  type JsonObject,
  newImportJob,
  recordRowError,
  restartedJob,
  rowRefusedFailure,
  type Violation,
} from '@dataplatform/contract';
import { ApiError } from '../../http/errors.js';
import { rejectViolation } from '../../http/validate.js';
import { lazy } from '../../lazy.js';
import type { DocumentOperation, OperationResult } from '../../storage/documents.js';
import type { JobRecord } from '../../storage/jobs.js';
import type { Storage } from '../../storage/types.js';
import { fieldsOf, insertOperation, nextId } from '../document-operations.js';
import { publicJob } from '../jobs.js';
import type { SchemaGuards } from '../schema-guards.js';
import { decodedBody, utf8Checked } from './decode.js';
import { jsonArrayParser } from './json-array.js';
import { ndjsonParser } from './ndjson.js';
import { type RowParser, SourceError, type SourceRow } from './rows.js';

/** Rows stored per transaction: large enough to amortise a commit, small enough to hold in memory. */
export const IMPORT_CHUNK_ROWS = 1000;

/** One import call. */
export interface ImportRequest {
  clusterId: string;
  collection: string;
  /** The format asked for by `format` or the Content-Type; undefined: sniffed from the first character. */
  format: ImportFormat | undefined;
  gzip: boolean;
  onError: 'skip' | 'abort';
  infer: boolean;
  resume: string | undefined;
  /** Longest row, in bytes (the single-document body limit). */
  maxRowBytes: number;
}

/**
 * What a stored chunk records under its mark, in the same transaction as its rows: the last row it covers and
 * what it counted. A resumed import finds the marks and passes the rows they cover.
 */
interface ChunkMark {
  lastRow: number;
  inserted: number;
  failed: number;
  errors: JobRowError[];
}

class Cancelled extends Error {}

/** A chunk of rows read but not stored yet, each row with its ordinal in the source. */
interface PendingRow {
  ordinal: number;
  row: SourceRow;
}

function markKey(jobId: string, firstRow: number): string {
  return `import:${jobId}:${firstRow}`;
}

// csv-parse is loaded by the first CSV import, not at start.
const loadCsv = lazy(() => import('./csv.js'));

async function parserFor(format: ImportFormat, infer: boolean, maxRowBytes: number): Promise<RowParser> {
  if (format === 'csv') return (await loadCsv()).csvParser(infer, maxRowBytes);
  if (format === 'json') return jsonArrayParser(maxRowBytes);
  return ndjsonParser(maxRowBytes);
}

/**
 * Streams a body into a collection as a job: rows are parsed as they arrive and stored in chunks through
 * `DocumentStore.apply`, so ids, counters, idempotency and everything else `apply` does hold for each row as for
 * a single write. Each chunk records a mark under an idempotency key of its own, atomically with its rows: the
 * marks are how a resumed import knows which rows are stored.
 */
export class ImportService {
  constructor(
    private readonly storage: Storage,
    private readonly guards: SchemaGuards,
  ) {}

  /** Runs the import to its end and returns the job; the body is always read to its end. */
  async run(request: ImportRequest, body: AsyncIterable<Buffer>) {
    const job = request.resume ? await this.resume(request) : await this.create(request);
    const run = new ImportRun(this.storage, this.guards, job, request);
    await run.consume(body);
    const stored = await this.storage.jobs.find(job.id);
    return publicJob(stored ?? job);
  }

  private async create(request: ImportRequest): Promise<JobRecord> {
    const { collection, format, onError, infer } = request;
    const job: JobRecord = {
      id: `job_${nextId()}`,
      ...newImportJob(request.clusterId, { collection, format, onError, infer }, new Date().toISOString()),
    };
    await this.storage.jobs.create(job);
    return job;
  }

  /** Takes an unfinished import of the cluster over: it counts again from the start, passing stored chunks. */
  private async resume(request: ImportRequest): Promise<JobRecord> {
    const id = request.resume!;
    const job = await this.storage.jobs.find(id);
    const visible = job?.clusterId === request.clusterId ? job : undefined;
    rejectViolation(checkResume(id, visible, request.collection, Date.now()));
    const now = new Date().toISOString();
    if (!(await this.storage.jobs.restart(id, { status: job!.status, updatedAt: job!.updatedAt }, now)))
      throw new ApiError('conflict', `Job "${id}" changed while being resumed; try again`);
    return { ...job!, ...restartedJob(now) };
  }
}

/** One pass over a body for a job. */
class ImportRun {
  private parser: RowParser | undefined;
  private pending: PendingRow[] = [];
  private ordinal = 0;
  /** Rows up to this ordinal are stored (found by their marks on a resume) and are passed over. */
  private storedThrough = 0;
  /** Whether marks may exist for rows not seen yet: only on a resume, and only until the first chunk without one. */
  private lookForMarks: boolean;
  private stopped = false;
  private readonly notBefore = new Date(Date.now() - IDEMPOTENCY_WINDOW_MS).toISOString();

  constructor(
    private readonly storage: Storage,
    private readonly guards: SchemaGuards,
    private readonly job: JobRecord,
    private readonly request: ImportRequest,
  ) {
    this.lookForMarks = request.resume !== undefined;
  }

  async consume(body: AsyncIterable<Buffer>): Promise<void> {
    const bodyIterator = body[Symbol.asyncIterator]();
    // The raw body, so it can still be read to its end (and discarded) when the job stops early.
    const raw: AsyncIterable<Buffer> = { [Symbol.asyncIterator]: () => bodyIterator };
    try {
      for await (const chunk of utf8Checked(decodedBody(raw, this.request.gzip))) {
        this.job.bytes += chunk.length;
        this.parser ??= await this.startParser(chunk);
        await this.take(this.parser.push(chunk));
      }
      if (this.parser) await this.take(await this.parser.end());
      await this.flush();
      await this.finish('succeeded', null);
    } catch (error) {
      await this.stop(error);
    }
    // The client is still sending: read the rest so it gets the answer instead of a broken connection.
    try {
      for (let next = await bodyIterator.next(); !next.done; next = await bodyIterator.next());
    } catch {
      // The client went away; there is nobody left to answer.
    }
  }

  private startParser(first: Buffer): Promise<RowParser> {
    const format = importFormat(this.request.format, first.subarray(0, 64).toString('utf8'));
    this.job.input = { ...this.job.input, format };
    return parserFor(format, this.request.infer, this.request.maxRowBytes);
  }

  private async take(rows: SourceRow[]): Promise<void> {
    for (const row of rows) {
      const ordinal = ++this.ordinal;
      if (ordinal <= this.storedThrough) continue;
      if (this.pending.length === 0 && this.lookForMarks && (await this.passStored(ordinal))) continue;
      if (row.error && this.request.onError === 'abort') {
        await this.flush();
        this.refuse(row.line, row.error.code, row.error.message);
        this.job.counts.rows = ordinal;
        throw new RowAbort(row.line, row.error.message);
      }
      this.pending.push({ ordinal, row });
      if (this.pending.length >= IMPORT_CHUNK_ROWS) await this.flush();
    }
  }

  /** On a resume: when a chunk starting at this row was stored, adds its counts and passes its rows. */
  private async passStored(firstRow: number): Promise<boolean> {
    const found = await this.storage.idempotency.find(
      this.job.clusterId,
      markKey(this.job.id, firstRow),
      this.notBefore,
    );
    if (!found) {
      this.lookForMarks = false;
      return false;
    }
    this.count(JSON.parse(found.body) as ChunkMark);
    return true;
  }

  private count(mark: ChunkMark): void {
    this.storedThrough = mark.lastRow;
    this.job.counts.rows = mark.lastRow;
    this.job.counts.inserted += mark.inserted;
    this.job.counts.failed += mark.failed;
    for (const error of mark.errors) this.refuse(error.line, error.code, error.message, false);
  }

  private refuse(line: number, code: string, message: string, counted = true): void {
    recordRowError(this.job, { line, code, message }, counted);
  }

  /** Stores the pending rows as one transaction with their mark, then saves the job's progress. */
  private async flush(): Promise<void> {
    const rows = this.pending;
    if (rows.length === 0) return;
    this.pending = [];
    const now = new Date().toISOString();
    const operations: DocumentOperation[] = [];
    const lines: number[] = [];
    const mark: ChunkMark = { lastRow: rows[rows.length - 1]!.ordinal, inserted: 0, failed: 0, errors: [] };
    // The collection's strict validator, read once per chunk: a row that does not match is a bad row.
    const guard = await this.guards.of(this.job.clusterId, this.request.collection);
    for (const { row } of rows) {
      if (row.error) {
        mark.failed++;
        mark.errors.push({ line: row.line, ...row.error });
        continue;
      }
      const violation =
        checkDocumentBody(row.value, { allowId: true }) ?? guard?.(fieldsOf(row.value as JsonObject));
      if (violation) {
        if (this.request.onError === 'abort') {
          throw await this.abortWithin(rows, operations, lines, row.line, violation.code, violation.message);
        }
        mark.failed++;
        mark.errors.push({ line: row.line, code: violation.code, message: violation.message });
        continue;
      }
      operations.push(insertOperation(this.request.collection, row.value as JsonObject, now));
      lines.push(row.line);
    }
    const outcome = await this.apply(rows[0]!.ordinal, operations, lines, mark);
    if (!outcome.ok) {
      const line = lines[outcome.index]!;
      throw await this.abortWithin(
        rows,
        operations.slice(0, outcome.index + 1),
        lines.slice(0, outcome.index + 1),
        line,
        outcome.violation?.code ?? DUPLICATE_ROW.code,
        outcome.violation?.message ?? DUPLICATE_ROW.message,
      );
    }
    this.count(mark);
    await this.save();
  }

  /**
   * `onError=abort` met a bad row inside a chunk: stores the rows before it (with a mark ending before it, so a
   * resume starts at the bad row), records the refusal and stops the job.
   */
  private async abortWithin(
    rows: PendingRow[],
    operations: DocumentOperation[],
    lines: number[],
    badLine: number,
    code: string,
    message: string,
  ): Promise<RowAbort> {
    const badIndex = rows.findIndex(({ row }) => row.line === badLine);
    const before = lines.findIndex((line) => line >= badLine);
    const kept = before === -1 ? operations : operations.slice(0, before);
    if (badIndex > 0) {
      const mark: ChunkMark = { lastRow: rows[badIndex - 1]!.ordinal, inserted: 0, failed: 0, errors: [] };
      const outcome = await this.apply(rows[0]!.ordinal, kept, lines, mark);
      if (outcome.ok) this.count(mark);
    }
    this.refuse(badLine, code, message);
    this.job.counts.rows = rows[badIndex]!.ordinal;
    return new RowAbort(badLine, message);
  }

  private async apply(
    firstRow: number,
    operations: DocumentOperation[],
    lines: number[],
    mark: ChunkMark,
  ): Promise<{ ok: true } | { ok: false; index: number; violation?: Violation }> {
    const outcome = await this.storage.documents.apply(this.job.clusterId, operations, {
      atomic: this.request.onError === 'abort',
      idempotency: {
        key: markKey(this.job.id, firstRow),
        fingerprint: 'import',
        status: 200,
        expiredBefore: this.notBefore,
        answer: (results: readonly OperationResult[]) => {
          results.forEach((result, index) => {
            if (result.ok) mark.inserted++;
            else {
              mark.failed++;
              // A taken id, or a unique index broken (with its own code and message).
              const violation = result.reason === 'refused' ? result.violation : undefined;
              mark.errors.push({
                line: lines[index]!,
                code: violation?.code ?? result.reason,
                message: violation?.message ?? DUPLICATE_ROW.message,
              });
            }
          });
          mark.errors = mark.errors.sort((a, b) => a.line - b.line).slice(0, JOB_ERROR_LIMIT);
          return JSON.stringify(mark);
        },
      },
    });
    if (outcome.ok) return { ok: true };
    if (outcome.reason === 'aborted') {
      const { result } = outcome;
      const violation = !result.ok && result.reason === 'refused' ? result.violation : undefined;
      return violation ? { ok: false, index: outcome.index, violation } : { ok: false, index: outcome.index };
    }
    // Another pass of this job stored the chunk at the same moment: its mark is the truth.
    throw new ApiError('conflict', `Job "${this.job.id}" is being resumed elsewhere`);
  }

  private async save(): Promise<void> {
    this.job.updatedAt = new Date().toISOString();
    if (!(await this.storage.jobs.save(this.job))) throw new Cancelled();
  }

  private async finish(status: 'succeeded' | 'failed', failure: JobRecord['failure']): Promise<void> {
    const now = new Date().toISOString();
    this.job.status = status;
    this.job.failure = failure;
    this.job.finishedAt = now;
    this.job.updatedAt = now;
    this.stopped = true;
    await this.storage.jobs.save(this.job);
  }

  /** Ends the job after a failure: what was stored stays, and the failure says how to go on. */
  private async stop(error: unknown): Promise<void> {
    if (this.stopped || error instanceof Cancelled) return;
    if (error instanceof RowAbort) {
      return this.finish('failed', rowRefusedFailure(this.job.id, error.line, error.message));
    }
    if (error instanceof SourceError) {
      return this.finish('failed', {
        code: error.code,
        message: `Line ${error.line}: ${error.message}`,
      });
    }
    if (error instanceof ApiError) {
      return this.finish('failed', { code: error.code, message: error.message });
    }
    const code = (error as { code?: unknown }).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') {
      return this.finish('failed', { code: 'invalid_gzip', message: 'The body is not valid gzip' });
    }
    if (code === 'ECONNRESET' || (error as Error).message === 'aborted') {
      return this.finish('failed', {
        code: 'upload_interrupted',
        message: `The upload broke off after ${this.job.counts.rows} rows; resume with resume=${this.job.id} and the same file`,
      });
    }
    await this.finish('failed', { code: 'internal_error', message: 'The import failed on the server' });
    throw error;
  }
}

/** `onError=abort` stopped the import at a bad row. */
class RowAbort extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}
