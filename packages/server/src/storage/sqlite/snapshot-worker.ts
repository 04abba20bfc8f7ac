/**
 * A SQLite snapshot's thread: a read-only connection of its own whose read transaction (WAL) holds the database as
 * it was at its first read, serving `SnapshotThread`'s requests one after the other. Making a backup's archive
 * lines here leaves the main thread only their hashing and the gzip calls: read, made and encoded on the main
 * thread, the lines were most of a SQLite backup's time, with the compression waiting behind them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { type LineCursor, SnapshotReads } from './snapshot-reads.js';
import type {
  SnapshotAnswer,
  SnapshotRequest,
  SnapshotThreadData,
  SnapshotValue,
} from './snapshot-thread.js';

const { file, clusterId } = workerData as SnapshotThreadData;
const port = parentPort!;
const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// Read, not mapped (the main connection maps the file): mapping read no faster here, and the mapped pages of a
// whole database counted in the server's resident memory (780 MiB at a million documents).
db.exec('BEGIN');
const reads = new SnapshotReads(db, clusterId);
// The first read fixes the snapshot's instant.
const collections = reads.collections();
/** The collections whose lines were asked for, by name. */
const cursors = new Map<string, LineCursor>();

function answer(request: SnapshotRequest): SnapshotValue {
  switch (request.op) {
    case 'collections':
      return collections;
    case 'documents':
      return reads.documents(request.collection, request.afterId, request.limit);
    case 'lines': {
      let cursor = cursors.get(request.collection);
      if (!cursor) {
        cursor = reads.lines(request.collection, request.collectionJson);
        cursors.set(request.collection, cursor);
      }
      // An ended cursor stays: a request sent ahead of its last block gets an empty one, not the lines again.
      return cursor.next(request.spare && Buffer.from(request.spare));
    }
  }
}

port.on('message', (request: SnapshotRequest) => {
  let value: SnapshotValue;
  try {
    value = answer(request);
  } catch (error) {
    port.postMessage({ id: request.id, error: (error as Error).message } satisfies SnapshotAnswer);
    return;
  }
  // A block of lines is handed over, not copied.
  const transfer = 'bytes' in value ? [value.bytes.buffer as ArrayBuffer] : [];
  port.postMessage({ id: request.id, value } satisfies SnapshotAnswer, transfer);
});
port.postMessage({ ready: true });
