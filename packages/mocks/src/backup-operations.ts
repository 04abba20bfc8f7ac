import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type Backup,
  type BackupSchedule,
  type backupRoutes,
  type ClusterAction,
  checkClusterAccess,
  clusterNotFound,
  type Job,
  type StoredDocument,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import { storedGzip } from './archive-bytes.js';
import { planOf } from './clusters.js';
import type { Operation } from './document-operations.js';
import type { DocumentStore } from './document-store.js';
import { randomToken } from './ids.js';
import type { OperationInput } from './request-input.js';

type RouteId = (typeof backupRoutes)[number]['id'];

interface MockBackup {
  backup: Backup;
  contents: Map<string, Map<string, StoredDocument>>;
}

/**
 * Backups of the mocks: a copy of the document store's contents, finished at once (a backup answers
 * `succeeded`). Validators and indexes are not in them, and the archive's checksums are not computed (the mocks
 * hash nothing): its manifest counts the documents, and `checksum` stays null.
 */
const ledgers = new WeakMap<DocumentStore, Map<string, MockBackup>>();

function ledgerOf(store: DocumentStore): Map<string, MockBackup> {
  let ledger = ledgers.get(store);
  if (!ledger) {
    ledger = new Map();
    ledgers.set(store, ledger);
  }
  return ledger;
}

/** Schedules of the mocks, by cluster: kept and answered, never run (`nextRunAt` stays null). */
const schedules = new WeakMap<DocumentStore, Map<string, BackupSchedule>>();

/**
 * Whether a cron expression has the server's shape: a nickname (`@daily`) or 5 or 6 fields of cron characters.
 * The server reads it with croner; the mocks, without a cron parser, refuse only what is plainly not cron.
 */
function looksLikeCron(cron: string): boolean {
  if (/^@[a-z]+$/i.test(cron)) return true;
  const fields = cron.trim().split(/\s+/);
  return (
    (fields.length === 5 || fields.length === 6) && fields.every((f) => /^[0-9A-Za-z*?,/#LW-]+$/.test(f))
  );
}

/** The cluster a session acts on, when its role allows `action`; `cls_mock` for the mocks' own keys. */
export function clusterOf(input: OperationInput, clusterId: string | null, action: ClusterAction): string {
  const account = input.account;
  if (!account?.session) return clusterId ?? 'cls_mock';
  const { userId } = account.session;
  const membership = account.model.clusters.membership(
    userId,
    planOf(account.model.billing(userId)),
    clusterId,
  );
  if (!membership) throw ApiError.fromViolation(clusterNotFound(clusterId ?? 'default'));
  const violation = checkClusterAccess(membership.role, action);
  if (violation) throw ApiError.fromViolation(violation);
  return membership.clusterId;
}

/** The backup, when the caller may do `action` on its cluster; 404 as the server answers otherwise. */
function backupOf(input: OperationInput, store: DocumentStore, action: ClusterAction): MockBackup {
  const id = input.params.id!;
  const found = ledgerOf(store).get(id);
  const missing = new ApiError('not_found', `Backup "${id}" not found`);
  if (!found) throw missing;
  try {
    clusterOf(input, found.backup.clusterId, action);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') throw missing;
    throw error;
  }
  return found;
}

/** A job of the mocks, finished as it starts, recorded in the ledger of jobs. */
export function finishedJob(
  input: OperationInput,
  clusterId: string,
  fields: Pick<Job, 'kind' | 'input' | 'result'>,
  done: number,
): Job {
  const now = new Date().toISOString();
  const job: Job = {
    _id: `job_${randomToken(12)}`,
    kind: fields.kind,
    status: 'succeeded',
    clusterId,
    input: fields.input,
    progress: { done, total: done },
    result: fields.result,
    counts: { rows: done, inserted: fields.kind === 'restore' ? done : 0, failed: 0 },
    bytes: 0,
    errors: [],
    failure: null,
    createdAt: now,
    startedAt: now,
    updatedAt: now,
    finishedAt: now,
  };
  input.jobs?.record(job, input.userId ?? null);
  return job;
}

/** The archive's NDJSON lines, as the server writes them (without validators, indexes and hashes). */
function archiveText(entry: MockBackup): string {
  const lines: unknown[] = [
    {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      clusterId: entry.backup.clusterId,
      createdAt: entry.backup.createdAt,
    },
  ];
  const counts: Record<string, number> = {};
  for (const name of [...entry.contents.keys()].sort()) {
    const documents = [...entry.contents.get(name)!.values()].sort((a, b) => (a._id < b._id ? -1 : 1));
    if (documents.length === 0) continue;
    lines.push({ type: 'collection', name, validator: null, indexes: [] });
    for (const { _id, _createdAt, _updatedAt, ...data } of documents as (StoredDocument &
      Record<string, unknown>)[])
      lines.push({
        type: 'document',
        collection: name,
        _id,
        data: { _id, ...data },
        createdAt: _createdAt,
        updatedAt: _updatedAt,
      });
    counts[name] = documents.length;
  }
  lines.push({ type: 'manifest', collections: counts, documents: entry.backup.documentCount, sha256: null });
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

/** The backup routes. */
export const backupOperations: Record<RouteId, Operation> = {
  'backups.getSchedule': (input, store) => {
    const clusterId = clusterOf(input, (input.query.clusterId as string | undefined) ?? null, 'read');
    const none = { clusterId, cron: null, retain: null, nextRunAt: null, lastRunAt: null };
    return { status: 200, body: schedules.get(store)?.get(clusterId) ?? none };
  },
  'backups.setSchedule': (input, store) => {
    const body = input.body as { clusterId?: string; cron: string | null; retain: number };
    const clusterId = clusterOf(input, body.clusterId ?? null, 'backups');
    if (body.cron !== null && !looksLikeCron(body.cron))
      throw new ApiError('validation_error', 'Invalid body field "cron": not a cron expression', {
        in: 'body',
        field: 'cron',
      });
    const byCluster = schedules.get(store) ?? new Map<string, BackupSchedule>();
    schedules.set(store, byCluster);
    const schedule: BackupSchedule =
      body.cron === null
        ? { clusterId, cron: null, retain: null, nextRunAt: null, lastRunAt: null }
        : { clusterId, cron: body.cron, retain: body.retain, nextRunAt: null, lastRunAt: null };
    if (body.cron === null) byCluster.delete(clusterId);
    else byCluster.set(clusterId, schedule);
    return { status: 200, body: schedule };
  },
  'backups.create': (input, store) => {
    const body = (input.body ?? {}) as { clusterId?: string };
    const clusterId = clusterOf(input, body.clusterId ?? null, 'backups');
    const contents = store.snapshot();
    let documentCount = 0;
    for (const documents of contents.values()) documentCount += documents.size;
    const now = new Date().toISOString();
    const backup: Backup = {
      _id: `bkp_${randomToken(12)}`,
      clusterId,
      status: 'succeeded',
      createdAt: now,
      completedAt: now,
      documentCount,
      sizeBytes: 0,
      checksum: null,
    };
    const entry = { backup, contents };
    backup.sizeBytes = storedGzip(archiveText(entry)).length;
    ledgerOf(store).set(backup._id, entry);
    finishedJob(
      input,
      clusterId,
      { kind: 'backup', input: { backupId: backup._id }, result: null },
      documentCount,
    );
    return { status: 202, body: backup };
  },
  'backups.list': (input, store) => {
    const clusterId = clusterOf(input, (input.query.clusterId as string | undefined) ?? null, 'read');
    const data = [...ledgerOf(store).values()]
      .map((entry) => entry.backup)
      .filter((backup) => backup.clusterId === clusterId)
      .reverse();
    return { status: 200, body: { data } };
  },
  'backups.get': (input, store) => ({ status: 200, body: backupOf(input, store, 'read').backup }),
  'backups.delete': (input, store) => {
    const { backup } = backupOf(input, store, 'backups');
    ledgerOf(store).delete(backup._id);
    return { status: 200, body: { _id: backup._id, deleted: true } };
  },
  'backups.download': (input, store) => {
    const entry = backupOf(input, store, 'read');
    return {
      status: 200,
      body: null,
      raw: { contentType: 'application/gzip', text: storedGzip(archiveText(entry)) },
    };
  },
  'backups.restore': (input, store) => {
    const entry = backupOf(input, store, 'backups');
    const body = (input.body ?? {}) as { targetClusterId?: string };
    const target = clusterOf(input, body.targetClusterId ?? entry.backup.clusterId, 'backups');
    const contents = store.snapshot();
    for (const [name, documents] of entry.contents) contents.set(name, documents);
    store.restore(contents);
    const result = { collections: entry.contents.size, documents: entry.backup.documentCount, indexes: 0 };
    const job = finishedJob(
      input,
      target,
      { kind: 'restore', input: { backupId: entry.backup._id, targetClusterId: target }, result },
      entry.backup.documentCount,
    );
    return { status: 202, body: job };
  },
};
