/** A backup as stored: its status and, once written, its archive's size, document count and checksum. */
export interface BackupRow {
  id: string;
  clusterId: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  createdAt: string;
  completedAt: string | null;
  documentCount: number;
  sizeBytes: number;
  checksum: string | null;
}

/** A collection as a snapshot reads it: its name, validator and index records. */
export interface SnapshotCollection {
  name: string;
  validator: { schema: string; level: 'strict' | 'off'; createdAt: string; updatedAt: string } | null;
  indexes: {
    name: string;
    fields: { path: string; order: 'asc' | 'desc' }[];
    unique: boolean;
    createdAt: string;
  }[];
}

/** A document as a snapshot reads it and a restore writes it: its JSON text as stored. */
export interface SnapshotDocument {
  id: string;
  data: string;
  createdAt: string;
  updatedAt: string;
}

/** Reads of one cluster at one instant: everything a reader returns is of the same snapshot. */
export interface SnapshotReader {
  /** Every collection of the cluster that holds documents or a validator or an index, by name. */
  collections(): Promise<SnapshotCollection[]>;
  /** Up to `limit` documents of the collection with ids after `afterId`, by id. */
  documents(collection: string, afterId: string, limit: number): Promise<SnapshotDocument[]>;
  /**
   * Every document of the collection as archive lines (`documentLine`'s, each ending in a line break, by id),
   * encoded to UTF-8 in blocks of about `LINE_BLOCK_BYTES`, made while the caller hashes and compresses the blocks
   * before (SQLite: on a thread of its own). Optional: the archive writer makes the lines itself without it.
   */
  documentLineBlocks?(collection: string, collectionJson: string): AsyncIterable<DocumentLineBlock>;
}

/** Document lines in UTF-8, and how many there are. */
export interface DocumentLineBlock {
  bytes: Buffer;
  count: number;
  /** Gives the bytes back to the storage, to fill again: called once they are hashed and compressed. */
  release?: () => void;
}

/** A snapshot's document as `[id, data, createdAt, updatedAt]`. */
export type DocumentTuple = readonly [id: string, data: string, createdAt: string, updatedAt: string];

/** What a restore writes: each collection with its validator, then its documents. */
export type RestoreEntry =
  | { type: 'collection'; collection: Omit<SnapshotCollection, 'indexes'> }
  | { type: 'document'; collection: string; document: SnapshotDocument };

/** Backups of clusters, the snapshot a backup reads, and the swap a restore makes. */
export interface BackupStore {
  create(row: BackupRow): Promise<void>;
  find(id: string): Promise<BackupRow | null>;
  /** Backups of a cluster, newest first. */
  list(clusterId: string): Promise<BackupRow[]>;
  /** Writes the row's status, completion, counts and checksum; false when the backup is gone. */
  update(row: BackupRow): Promise<boolean>;
  /** Removes the record; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** The documents of the cluster, from the collections' counts (no document is read). */
  documentCount(clusterId: string): Promise<number>;
  /**
   * Runs `read` over one consistent snapshot of the database (SQLite: one read transaction on a connection of its
   * own; PostgreSQL: a REPEATABLE READ, READ ONLY transaction), so writes that go on meanwhile are not seen.
   */
  snapshot<T>(clusterId: string, read: (reader: SnapshotReader) => Promise<T>): Promise<T>;
  /**
   * Atomically: for every collection the entries name, replaces the cluster's documents and validator of that
   * collection by the entries' (with the collections' counts). Either all of it is done or none of it, and none of
   * it before the entries ended: an iteration that throws (a check of the archive) changes nothing. An entry's
   * collection line comes before its documents. SQLite writes the documents as they come under hidden collection
   * rows and swaps the rows at the end (the collections' indexes go with the rows they replaced: the caller
   * builds them again); PostgreSQL writes them in one transaction.
   */
  replaceCollections(
    clusterId: string,
    entries: AsyncIterable<RestoreEntry>,
  ): Promise<{ collections: number; documents: number }>;
  /** Removes what restores stopped by a crash left behind (SQLite's hidden rows); call once at start. */
  cleanUp(): Promise<void>;
}
