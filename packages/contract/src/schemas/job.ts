import { z } from 'zod';
import { BackupJobInput, RestoreJobInput, RestoreResult } from './backup.js';
import { fromQuery, listEnvelope, Timestamp } from './common.js';
import { DatasetJobInput, PredictionJobInput, TrainingJobInput } from './intelligence.js';

/**
 * Kinds of background work a job tracks: imports, cluster deletions, index builds, validator checks,
 * collection drops, backups and restores, dataset builds, trainings and batch predictions.
 */
export const JOB_KINDS = [
  'import',
  'cluster.delete',
  'index.build',
  'validator.check',
  'collection.drop',
  'backup',
  'restore',
  'dataset.build',
  'model.train',
  'prediction.batch',
] as const;

/** A job kind. */
export type JobKind = (typeof JOB_KINDS)[number];

/** Where a job is: waiting, working, or finished one of three ways. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** A job status. */
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Statuses of a job that will not change any more (a failed or cancelled import can still be resumed). */
export const FINISHED_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];

/** Formats an import reads. */
export const IMPORT_FORMATS = ['ndjson', 'json', 'csv'] as const;

/** An import format: NDJSON (one object per line), a JSON array of objects, or CSV with a header row. */
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** What an import does with a bad row: leave it out and go on, or stop there. */
export const IMPORT_ON_ERROR = ['skip', 'abort'] as const;

/** The most row errors a job keeps; the counts cover all of them. */
export const JOB_ERROR_LIMIT = 100;

/** A row an import could not store, and why. */
export const JobRowError = z
  .object({
    line: z.number().int().min(1).meta({ description: 'Line of the source where the row starts (1-based)' }),
    code: z.string().meta({ description: 'invalid_json, invalid_body, invalid_row or conflict' }),
    message: z.string(),
  })
  .meta({ id: 'JobRowError', description: 'A row of an import that was not stored.' });

/** What an import job was asked to do. */
export const ImportInput = z
  .object({
    collection: z.string(),
    format: z.enum(IMPORT_FORMATS),
    onError: z.enum(IMPORT_ON_ERROR),
    infer: z.boolean().meta({ description: 'CSV only: numbers, true/false and empty cells become typed' }),
  })
  .meta({ id: 'ImportInput', description: 'The options an import job runs with.' });

/** What a cluster deletion was asked to do: remove the cluster and everything in it. */
export const ClusterDeletionInput = z
  .object({ clusterId: z.string() })
  .meta({ id: 'ClusterDeletionInput', description: 'The cluster a deletion job removes.' });

/** What an index build was asked to do. */
export const IndexBuildInput = z
  .object({
    collection: z.string(),
    name: z.string(),
    fields: z.array(z.object({ path: z.string(), order: z.enum(['asc', 'desc']) })),
    unique: z.boolean(),
  })
  .meta({ id: 'IndexBuildInput', description: 'The index a build job makes.' });

/** What a validator check was asked to do: test the collection's stored documents against its validator. */
export const ValidatorCheckInput = z
  .object({ collection: z.string() })
  .meta({ id: 'ValidatorCheckInput', description: 'The collection a validator check reads.' });

/** What a collection drop was asked to do. */
export const CollectionDropInput = z
  .object({ collection: z.string() })
  .meta({ id: 'CollectionDropInput', description: 'The collection a drop removes.' });

/** The most documents a validator check names in its result. */
export const VALIDATOR_CHECK_SAMPLES = 20;

/** What a validator check found. */
export const ValidatorCheckResult = z
  .object({
    checked: z.number().int().min(0).meta({ description: 'Documents read' }),
    failing: z.number().int().min(0).meta({ description: 'Documents that do not match the validator' }),
    samples: z
      .array(
        z.object({
          _id: z.string(),
          errors: z.array(z.object({ path: z.string(), message: z.string() })),
        }),
      )
      .meta({ description: `The first ${VALIDATOR_CHECK_SAMPLES} documents that do not match, and why` }),
  })
  .meta({
    id: 'ValidatorCheckResult',
    description: 'Counts and samples of the documents a validator refuses.',
  });

/** How far a job is: units done (documents, rows), out of a total when one is known. */
export const JobProgress = z
  .object({
    done: z.number().int().min(0),
    total: z.number().int().min(0).nullable().meta({ description: 'null when not known in advance' }),
  })
  .meta({ id: 'JobProgress', description: 'Units of work done, and the total when known.' });

/** A background job of a cluster. */
export const Job = z
  .object({
    _id: z.string(),
    kind: z.enum(JOB_KINDS),
    status: z.enum(JOB_STATUSES),
    clusterId: z.string(),
    input: z
      .union([
        ImportInput,
        ClusterDeletionInput,
        IndexBuildInput,
        ValidatorCheckInput,
        CollectionDropInput,
        BackupJobInput,
        RestoreJobInput,
        DatasetJobInput,
        TrainingJobInput,
        PredictionJobInput,
      ])
      .meta({
        description:
          'What the job was asked to do: `ImportInput` for an import, `ClusterDeletionInput` for a cluster deletion, `IndexBuildInput` for an index build, `ValidatorCheckInput` for a validator check, `CollectionDropInput` for a collection drop, `BackupJobInput` for a backup, `RestoreJobInput` for a restore, `DatasetJobInput` for a dataset build, `TrainingJobInput` for a training, `PredictionJobInput` for a batch prediction',
      }),
    progress: JobProgress,
    result: z.union([ValidatorCheckResult, RestoreResult, z.null()]).meta({
      description:
        'What a finished job produced, by kind: `ValidatorCheckResult` for a validator check, `RestoreResult` for a restore; null for the other kinds and while running',
    }),
    counts: z
      .object({
        rows: z
          .number()
          .int()
          .min(0)
          .meta({ description: 'Rows read so far, bad ones included; for a deletion, rows removed' }),
        inserted: z.number().int().min(0),
        failed: z.number().int().min(0),
      })
      .meta({ description: 'Rows read, stored and refused' }),
    bytes: z.number().int().min(0).meta({ description: 'Bytes of the (decompressed) source read so far' }),
    errors: z.array(JobRowError).meta({ description: `The first ${JOB_ERROR_LIMIT} rows refused` }),
    failure: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: 'Why a failed or cancelled job stopped' }),
    createdAt: Timestamp,
    startedAt: Timestamp.nullable().meta({
      description: 'When the job last began running (a resume begins a new run)',
    }),
    updatedAt: Timestamp.meta({ description: 'When it last changed: progress saved, resumed or finished' }),
    finishedAt: Timestamp.nullable().meta({
      description: 'When it finished; from startedAt, how long its last run took, and so its rows per second',
    }),
  })
  .meta({
    id: 'Job',
    description:
      'Work the server does in the background, with its status, progress, counts, the first row errors and timestamps.',
  });

/** A job. */
export type Job = z.infer<typeof Job>;

/** An import job: a job whose input is an import's. */
export type ImportJob = Omit<Job, 'input'> & { input: z.infer<typeof ImportInput> };

/** A row error of a job. */
export type JobRowError = z.infer<typeof JobRowError>;

/** One page of jobs, newest first. */
export const JobList = listEnvelope(Job, 'JobList');

/** A page of jobs. */
export type JobList = z.infer<typeof JobList>;

/** Query of a job list. */
export const JobListQuery = z.object({
  limit: fromQuery(
    z.coerce.number().int().min(1).max(1000).default(50).meta({ description: 'Page size, 1 to 1000' }),
  ),
  skip: fromQuery(z.coerce.number().int().min(0).default(0).meta({ description: 'Jobs to skip' })),
});

/** Path of a job route. */
export const JobParams = z.object({ id: z.string().min(1).max(128) });

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** Query of an import: options of a write, so an unknown one (a misspelt `onerror`) is refused, not ignored. */
export const ImportQuery = z.strictObject({
  format: z
    .enum(IMPORT_FORMATS)
    .optional()
    .meta({ description: 'Overrides the Content-Type: ndjson, json (an array) or csv' }),
  onError: z
    .enum(IMPORT_ON_ERROR)
    .default('skip')
    .meta({ description: 'skip: leave bad rows out and go on; abort: stop at the first bad row' }),
  infer: flag
    .default(true)
    .meta({ description: 'CSV: type numbers, true/false and empty cells (default true)' }),
  resume: z.string().min(1).max(128).optional().meta({
    description: 'The id of an unfinished import to continue: send the same file again from its start',
  }),
});

/** Query of an import, as the client sends it. */
export type ImportQuery = z.input<typeof ImportQuery>;

/** What a validator check found. */
export type ValidatorCheckResult = z.infer<typeof ValidatorCheckResult>;

/** How far a job is. */
export type JobProgress = z.infer<typeof JobProgress>;
