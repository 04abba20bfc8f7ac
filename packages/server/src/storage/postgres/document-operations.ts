import type { Sql, TransactionSql } from 'postgres';
import { preconditionFails } from '../../document-etag.js';
import type { DocumentOperation, DocumentRow, OperationResult } from '../documents.js';

// Every statement is prepared once per connection (its text never changes): a batch runs them many times.

/** A pool or a transaction: every statement here runs on either. */
export type Query = Sql | TransactionSql;

/** The document columns as a DocumentRow, the fields as jsonb's text. */
export const COLUMNS = 'id, data::text AS data, created_at AS "createdAt", updated_at AS "updatedAt"';
const COUNTER_SHARDS = 16;
const NOT_FOUND: OperationResult = { ok: false, reason: 'not_found' };
const CONFLICT: OperationResult = { ok: false, reason: 'conflict' };
const REFUSED: OperationResult = { ok: false, reason: 'refused' };
const PRECONDITION_FAILED: OperationResult = { ok: false, reason: 'precondition_failed' };

/** A patch of a run: where it stands in the batch and which document it changes. */
interface PatchTarget {
  at: number;
  operation: Extract<DocumentOperation, { kind: 'update' }>;
  collectionId: string;
}

/** The new fields of a locked document, and where its patch stands in the batch. */
interface Change {
  at: number;
  collectionId: string;
  id: string;
  data: string;
  updatedAt: string;
}

function targetKey(collectionId: string, id: string): string {
  return `${collectionId}\u0000${id}`;
}

function shard(): number {
  return Math.floor(Math.random() * COUNTER_SHARDS);
}

/**
 * Sends the operations in order without waiting between them (postgres.js pipelines a transaction's queries),
 * consecutive inserts into one collection as one statement; only a patch waits, to read what it changes.
 * Counters use one shard per collection per call, so a batch never holds two counter rows of a collection.
 */
export async function applyOperations(
  q: Query,
  operations: readonly DocumentOperation[],
  ids: Map<string, string | undefined>,
): Promise<OperationResult[]> {
  const results: OperationResult[] = new Array(operations.length);
  const pending: Promise<unknown>[] = [];
  const shards = new Map<string, number>();
  const shardOf = (collectionId: string) => {
    const value = shards.get(collectionId) ?? shard();
    shards.set(collectionId, value);
    return value;
  };
  const send = <T>(query: Promise<T>, then: (value: T) => void) => {
    const done = query.then(then);
    done.catch(() => {}); // awaited below; this only keeps an early failure from counting as unhandled
    pending.push(done);
  };
  let index = 0;
  while (index < operations.length) {
    const operation = operations[index]!;
    const at = index++;
    if (operation.kind === 'refused') {
      results[at] = operation.violation
        ? { ok: false, reason: 'refused', violation: operation.violation }
        : REFUSED;
      continue;
    }
    const collectionId = ids.get(operation.collection);
    if (collectionId === undefined) {
      results[at] = NOT_FOUND;
      continue;
    }
    switch (operation.kind) {
      case 'insert': {
        const rows = [operation.row];
        const taken = new Set([operation.row.id]);
        for (
          let next = operations[index];
          isInsertInto(next, operation.collection, taken);
          next = operations[++index]
        ) {
          rows.push(next.row);
          taken.add(next.row.id);
        }
        send(insertRows(q, collectionId, rows, shardOf(collectionId)), (stored) => {
          const byId = new Map(stored.map((row) => [row.id, row]));
          rows.forEach((row, offset) => {
            const inserted = byId.get(row.id);
            results[at + offset] = inserted ? { ok: true, row: inserted } : CONFLICT;
          });
        });
        break;
      }
      case 'get':
        send(selectOne(q, collectionId, operation.id), ([row]) => {
          if (!row) results[at] = NOT_FOUND;
          else
            results[at] = preconditionFails(operation.ifMatch, row) ? PRECONDITION_FAILED : { ok: true, row };
        });
        break;
      case 'replace':
        if (operation.ifMatch !== undefined) {
          await Promise.all(pending);
          const checked = await checkPrecondition(q, collectionId, operation.id, operation.ifMatch);
          if (checked) {
            results[at] = checked;
            break;
          }
        }
        send(
          replaceData(q, collectionId, operation.id, operation.data, operation.updatedAt),
          found(results, at),
        );
        break;
      case 'update': {
        // Consecutive patches of distinct documents read what they change with one locking statement.
        const run: PatchTarget[] = [{ at, operation, collectionId }];
        const taken = new Set([targetKey(collectionId, operation.id)]);
        for (let next = operations[index]; next?.kind === 'update'; next = operations[++index]) {
          const nextCollectionId = ids.get(next.collection);
          if (nextCollectionId === undefined) {
            results[index] = NOT_FOUND;
            continue;
          }
          const key = targetKey(nextCollectionId, next.id);
          if (taken.has(key)) break;
          taken.add(key);
          run.push({ at: index, operation: next, collectionId: nextCollectionId });
        }
        await Promise.all(pending);
        const current = await selectForUpdate(q, run);
        const byKey = new Map(current.map((row) => [targetKey(row.collectionId, row.id), row]));
        const changes: Change[] = [];
        for (const { at: position, operation: patch, collectionId: target } of run) {
          const row = byKey.get(targetKey(target, patch.id));
          const changed = row ? patch.change(JSON.parse(row.data)) : null;
          const violation = changed && patch.check?.(changed);
          if (!row) results[position] = NOT_FOUND;
          else if (preconditionFails(patch.ifMatch, row)) results[position] = PRECONDITION_FAILED;
          else if (violation) results[position] = { ok: false, reason: 'refused', violation };
          else {
            const data = JSON.stringify(changed);
            changes.push({
              at: position,
              collectionId: target,
              id: patch.id,
              data,
              updatedAt: patch.updatedAt,
            });
          }
        }
        if (changes.length > 0)
          send(updateRows(q, changes), (stored) => {
            const byTarget = new Map(stored.map((row) => [targetKey(row.collectionId, row.id), row]));
            for (const change of changes) {
              const row = byTarget.get(targetKey(change.collectionId, change.id))!;
              results[change.at] = { ok: true, row };
            }
          });
        break;
      }
      case 'delete':
        if (operation.ifMatch !== undefined) {
          await Promise.all(pending);
          const checked = await checkPrecondition(q, collectionId, operation.id, operation.ifMatch);
          if (checked) {
            results[at] = checked;
            break;
          }
        }
        send(deleteOne(q, collectionId, operation.id, shardOf(collectionId)), (removed) => {
          results[at] = removed.count === 0 ? NOT_FOUND : { ok: true, deleted: operation.id };
        });
        break;
    }
  }
  await Promise.all(pending);
  return results;
}

/** One document's row, or none when it is missing. */
export function selectOne(q: Query, collectionId: string, id: string) {
  return q
    .unsafe<DocumentRow[]>(
      `SELECT ${COLUMNS} FROM documents WHERE collection_id = $1 AND id = $2`,
      [collectionId, id],
      { prepare: true },
    )
    .execute();
}

/**
 * Locks the document a conditional write changes and compares its entity tag with the operation's If-Match: the
 * failure the write stops at (missing, or changed since the caller read it), or null to go on. The lock holds
 * until the transaction ends, so nothing changes the document between the check and the write.
 */
async function checkPrecondition(
  q: Query,
  collectionId: string,
  id: string,
  ifMatch: string,
): Promise<OperationResult | null> {
  const [row] = await q
    .unsafe<DocumentRow[]>(
      `SELECT ${COLUMNS} FROM documents WHERE collection_id = $1 AND id = $2 FOR UPDATE`,
      [collectionId, id],
      { prepare: true },
    )
    .execute();
  if (!row) return NOT_FOUND;
  return preconditionFails(ifMatch, row) ? PRECONDITION_FAILED : null;
}

/** The rows patches will change, locked until the transaction ends; missing documents are left out. */
function selectForUpdate(q: Query, targets: readonly PatchTarget[]) {
  return q
    .unsafe<(DocumentRow & { collectionId: string })[]>(
      `SELECT collection_id::text AS "collectionId", ${COLUMNS}
       FROM unnest($1::bigint[], $2::text[]) AS k(cid, did)
       JOIN documents ON collection_id = k.cid AND id = k.did COLLATE "C"
       FOR UPDATE OF documents`,
      [targets.map((target) => target.collectionId), targets.map((target) => target.operation.id)] as never[],
      { prepare: true },
    )
    .execute();
}

/** Inserts rows with distinct ids in one statement, moving the counter by the number inserted; taken ids are skipped. */
function insertRows(q: Query, collectionId: string, rows: readonly DocumentRow[], counterShard: number) {
  return q
    .unsafe<DocumentRow[]>(
      `WITH inserted AS (
         INSERT INTO documents (collection_id, id, data, created_at, updated_at)
         SELECT $1, r.id, r.data::jsonb, r.created_at, r.updated_at
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS r(id, data, created_at, updated_at)
         ON CONFLICT (collection_id, id) DO NOTHING
         RETURNING ${COLUMNS}
       ), counted AS (
         INSERT INTO collection_counters (collection_id, shard, n)
         SELECT $1, $6, count(*) FROM inserted HAVING count(*) > 0
         ON CONFLICT (collection_id, shard) DO UPDATE SET n = collection_counters.n + EXCLUDED.n
       )
       SELECT * FROM inserted`,
      [
        collectionId,
        rows.map((row) => row.id),
        rows.map((row) => row.data),
        rows.map((row) => row.createdAt),
        rows.map((row) => row.updatedAt),
        counterShard,
      ] as never[],
      { prepare: true },
    )
    .execute();
}

/** Stores the new fields of documents a patch run locked, in one statement. */
function updateRows(q: Query, changes: readonly Change[]) {
  return q
    .unsafe<(DocumentRow & { collectionId: string })[]>(
      `UPDATE documents SET data = k.fields::jsonb, updated_at = k.at
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS k(cid, did, fields, at)
       WHERE collection_id = k.cid AND id = k.did COLLATE "C"
       RETURNING collection_id::text AS "collectionId", ${COLUMNS}`,
      [
        changes.map((change) => change.collectionId),
        changes.map((change) => change.id),
        changes.map((change) => change.data),
        changes.map((change) => change.updatedAt),
      ] as never[],
      { prepare: true },
    )
    .execute();
}

/** Replaces a document's fields; returns its row, or none when it is missing. */
function replaceData(q: Query, collectionId: string, id: string, data: string, updatedAt: string) {
  return q
    .unsafe<DocumentRow[]>(
      `UPDATE documents SET data = $1::text::jsonb, updated_at = $2 WHERE collection_id = $3 AND id = $4 RETURNING ${COLUMNS}`,
      [data, updatedAt, collectionId, id],
      { prepare: true },
    )
    .execute();
}

/** Deletes a document and moves the counter down; `count` is 0 when it was missing. */
function deleteOne(q: Query, collectionId: string, id: string, counterShard: number) {
  return q
    .unsafe(
      `WITH removed AS (
         DELETE FROM documents WHERE collection_id = $1 AND id = $2 RETURNING 1
       )
       INSERT INTO collection_counters (collection_id, shard, n) SELECT $1, $3, -1 FROM removed
       ON CONFLICT (collection_id, shard) DO UPDATE SET n = collection_counters.n - 1
       RETURNING 1`,
      [collectionId, id, counterShard],
      { prepare: true },
    )
    .execute();
}

/** True when `next` inserts into `collection` an id not yet in the statement being built. */
function isInsertInto(
  next: DocumentOperation | undefined,
  collection: string,
  taken: ReadonlySet<string>,
): next is Extract<DocumentOperation, { kind: 'insert' }> {
  return next?.kind === 'insert' && next.collection === collection && !taken.has(next.row.id);
}

/** Stores the first returned row as the operation's document, or not_found when none came back. */
function found(results: OperationResult[], at: number) {
  return ([row]: DocumentRow[]) => {
    results[at] = row ? { ok: true, row } : NOT_FOUND;
  };
}
