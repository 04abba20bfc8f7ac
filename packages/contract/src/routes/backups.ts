import {
  Backup,
  BackupArchive,
  BackupCreate,
  BackupList,
  BackupListQuery,
  BackupParams,
  BackupRestore,
} from '../schemas/backup.js';
import { Deleted } from '../schemas/common.js';
import { Job } from '../schemas/job.js';
import type { RouteDefinition } from './types.js';

const tag = 'backups';

const WRITE_ROLE = 'Owners, admins and developers (403 `forbidden` for viewers).';
const ONE =
  '404 `not_found` when there is no such backup or it is of a cluster the caller is not a member of.';

/** Backups of a cluster and their restores, under /api/backups. Session token only. */
export const backupRoutes = [
  {
    id: 'backups.create',
    method: 'POST',
    path: '/api/backups',
    tag,
    summary: 'Back up a cluster',
    description: `Answers 202 with the backup, \`queued\`; a \`backup\` job (listed with the other jobs, its input naming the backup) writes its archive: every collection of the cluster with its validator and indexes and every document, as they were at one instant while writes go on. The backup is \`succeeded\` with its document count, size and checksum when the archive is written. A cluster of up to 10,000 documents is backed up before the answer, which is then the backup \`succeeded\` (or \`failed\`); a larger one in the background, its backup \`queued\` or \`running\` until then, and a restart writes it again from a new snapshot. Keys, sessions and secrets are never in it. A cluster the caller is not a member of is 404 \`not_found\`. ${WRITE_ROLE}`,
    auth: 'session',
    scopes: [],
    body: BackupCreate,
    bodyRequired: false,
    success: { status: 202, description: 'The backup, queued', schema: Backup },
    errors: ['validation_error', 'not_found', 'forbidden'],
  },
  {
    id: 'backups.list',
    method: 'GET',
    path: '/api/backups',
    tag,
    summary: 'List backups',
    description:
      "The backups of the cluster `clusterId` names (else the caller's default cluster), newest first. Any member may call it; a cluster the caller is not a member of is 404 `not_found`.",
    auth: 'session',
    scopes: [],
    query: BackupListQuery,
    success: { status: 200, description: 'The backups', schema: BackupList },
    errors: ['not_found'],
  },
  {
    id: 'backups.get',
    method: 'GET',
    path: '/api/backups/{id}',
    tag,
    summary: 'Get a backup',
    description: `Any member of its cluster may call it. ${ONE}`,
    auth: 'session',
    scopes: [],
    params: BackupParams,
    success: { status: 200, description: 'The backup', schema: Backup },
    errors: ['not_found'],
  },
  {
    id: 'backups.delete',
    method: 'DELETE',
    path: '/api/backups/{id}',
    tag,
    summary: 'Delete a backup',
    description: `Removes the backup and its archive. ${ONE} ${WRITE_ROLE}`,
    auth: 'session',
    scopes: [],
    params: BackupParams,
    success: { status: 200, description: 'The backup is gone', schema: Deleted },
    errors: ['not_found', 'forbidden'],
  },
  {
    id: 'backups.download',
    method: 'GET',
    path: '/api/backups/{id}/download',
    tag,
    summary: "Download a backup's archive",
    description: `The archive, \`application/gzip\`: gzip of NDJSON lines, first \`{ format: "dataplatform-backup", version: 1, clusterId, createdAt }\`, then for each collection a \`{ type: "collection", name, validator, indexes }\` line followed by its \`{ type: "document", collection, _id, data, createdAt, updatedAt }\` lines, and last \`{ type: "manifest", collections: { name: count }, documents, sha256 }\`, where \`sha256\` is the SHA-256 of every line before it (newlines included). The file's own SHA-256 is the backup's \`checksum\`. 409 \`conflict\` while the backup is not \`succeeded\`. Any member of its cluster may call it (a member reads every document anyway). ${ONE}`,
    auth: 'session',
    scopes: [],
    params: BackupParams,
    success: {
      status: 200,
      description: 'The gzip archive',
      schema: BackupArchive,
      contentType: 'application/gzip',
    },
    errors: ['not_found', 'conflict'],
  },
  {
    id: 'backups.restore',
    method: 'POST',
    path: '/api/backups/{id}/restore',
    tag,
    summary: 'Restore a backup',
    description: `Answers 202 with a \`restore\` job. The job checks the archive first (its checksum and its manifest): a damaged one fails the job with \`failure.code\` \`invalid_archive\` and nothing changed. Then, in one transaction, each collection of the archive replaces the target cluster's collection of that name (documents, validator); the target's other collections are left alone. The archive's indexes are then built (and the target's other indexes of those collections dropped). A restore writes no webhook events. A backup of up to 10,000 documents is restored before the answer, which is then the job finished; a larger one in the background. The target is \`targetClusterId\`, else the backup's own cluster; the caller must be an owner, admin or developer of both (403 \`forbidden\`), and a member of both (404 \`not_found\`). 409 \`conflict\` while the backup is not \`succeeded\`. ${ONE}`,
    auth: 'session',
    scopes: [],
    params: BackupParams,
    body: BackupRestore,
    bodyRequired: false,
    success: { status: 202, description: 'The restore job', schema: Job },
    errors: ['validation_error', 'not_found', 'forbidden', 'conflict'],
  },
] as const satisfies readonly RouteDefinition[];
