import { z } from 'zod';
import { Timestamp } from './common.js';

/** Where a backup is: waiting, being written, written, or failed. */
export const BACKUP_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;

/** The `format` of an archive's first line. */
export const BACKUP_FORMAT = 'dataplatform-backup';

/** The version of the archive format this contract describes. */
export const BACKUP_FORMAT_VERSION = 1;

/** A backup of a cluster: a snapshot of its collections, documents, validators and indexes, in one archive. */
export const Backup = z
  .object({
    _id: z.string(),
    clusterId: z.string(),
    status: z.enum(BACKUP_STATUSES),
    createdAt: Timestamp,
    completedAt: Timestamp.nullable().meta({
      description: 'When the archive was written (or the backup failed)',
    }),
    documentCount: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Documents in the archive; 0 until it is written' }),
    sizeBytes: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Bytes of the gzip archive; 0 until it is written' }),
    checksum: z
      .string()
      .nullable()
      .meta({ description: 'SHA-256 of the whole archive file, `sha256:<hex>`; null until it is written' }),
  })
  .meta({ id: 'Backup', description: 'A backup of a cluster and its archive.' });

/** A backup. */
export type Backup = z.infer<typeof Backup>;

/** The backups of a cluster, newest first. */
export const BackupList = z
  .object({ data: z.array(Backup) })
  .meta({ id: 'BackupList', description: 'Backups of a cluster, newest first.' });

/** A list of backups. */
export type BackupList = z.infer<typeof BackupList>;

/** A backup's archive as it is downloaded: gzip bytes. */
export const BackupArchive = z.string().meta({
  id: 'BackupArchive',
  description: 'A gzip archive of NDJSON lines: header, collections with their documents, manifest.',
  format: 'binary',
});

/** Body of a new backup. */
export const BackupCreate = z
  .strictObject({
    clusterId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .meta({ description: "The cluster to back up; the caller's default cluster when left out" }),
  })
  .meta({ id: 'BackupCreate', description: 'Which cluster to back up.' });

/** Body of a new backup, as the client sends it. */
export type BackupCreate = z.input<typeof BackupCreate>;

/** Query of the backup list. */
export const BackupListQuery = z.object({
  clusterId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({ description: 'A cluster the caller is a member of; their default cluster when left out' }),
});

/** Path of a backup route. */
export const BackupParams = z.object({ id: z.string().min(1).max(128) });

/** Body of a restore. */
export const BackupRestore = z
  .strictObject({
    targetClusterId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .meta({ description: "The cluster to restore into; the backup's own cluster when left out" }),
  })
  .meta({ id: 'BackupRestore', description: 'Where to restore a backup.' });

/** Body of a restore, as the client sends it. */
export type BackupRestore = z.input<typeof BackupRestore>;

/** Most scheduled backups a cluster keeps. */
export const MAX_BACKUP_RETAIN = 1000;

/** A cluster's backup schedule; `cron` null when it has none. */
export const BackupSchedule = z
  .object({
    clusterId: z.string(),
    cron: z
      .string()
      .nullable()
      .meta({ description: 'The cron expression (UTC); null when the cluster has no schedule' }),
    retain: z
      .number()
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'How many succeeded backups of the cluster are kept; null with no schedule' }),
    nextRunAt: Timestamp.nullable().meta({ description: 'When the next scheduled backup starts' }),
    lastRunAt: Timestamp.nullable().meta({ description: 'When the last scheduled backup started' }),
  })
  .meta({ id: 'BackupSchedule', description: "A cluster's scheduled backups and how many are kept." });

/** A backup schedule. */
export type BackupSchedule = z.infer<typeof BackupSchedule>;

/** Query of the schedule read. */
export const BackupScheduleQuery = BackupListQuery;

/** Body of a schedule change. */
export const BackupScheduleUpdate = z
  .strictObject({
    clusterId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .meta({ description: "The cluster to schedule; the caller's default cluster when left out" }),
    cron: z.string().min(1).max(128).nullable().meta({
      description:
        'A cron expression in UTC: 5 fields (minutes first), 6 (seconds first) or a nickname such as `@daily`; null removes the schedule',
    }),
    retain: z.number().int().min(1).max(MAX_BACKUP_RETAIN).meta({
      description:
        'How many succeeded backups of the cluster to keep: after each scheduled backup, the oldest past it are deleted',
    }),
  })
  .meta({
    id: 'BackupScheduleUpdate',
    description: 'When to back up a cluster and how many backups to keep.',
  });

/** Body of a schedule change, as the client sends it. */
export type BackupScheduleUpdate = z.input<typeof BackupScheduleUpdate>;

/** What a backup job was asked to do. */
export const BackupJobInput = z
  .object({
    backupId: z.string(),
    retain: z
      .number()
      .int()
      .optional()
      .meta({ description: "A scheduled backup's retention: once written, the oldest past it are deleted" }),
  })
  .meta({ id: 'BackupJobInput', description: 'The backup a backup job writes.' });

/** What a restore job was asked to do. */
export const RestoreJobInput = z.object({ backupId: z.string(), targetClusterId: z.string() }).meta({
  id: 'RestoreJobInput',
  description: 'The backup a restore reads and the cluster it replaces collections of.',
});

/** What a restore did. */
export const RestoreResult = z
  .object({
    collections: z.number().int().min(0).meta({ description: 'Collections replaced' }),
    documents: z.number().int().min(0).meta({ description: 'Documents written' }),
    indexes: z.number().int().min(0).meta({ description: 'Indexes built' }),
  })
  .meta({ id: 'RestoreResult', description: 'Counts of what a restore wrote.' });

/** What a restore did. */
export type RestoreResult = z.infer<typeof RestoreResult>;
