import type { Violation } from '@dataplatform/contract';

/** A collection's validator as stored: its JSON Schema as JSON text. */
export interface ValidatorRow {
  clusterId: string;
  collection: string;
  /** JSON text of the JSON Schema. */
  schema: string;
  level: 'strict' | 'off';
  createdAt: string;
  updatedAt: string;
}

/** A collection of a cluster with its size. */
export interface CollectionStats {
  name: string;
  documentCount: number;
  /** Bytes of the documents' JSON text. */
  storageBytes: number;
}

/** An index of a collection as stored. */
export interface IndexRow {
  clusterId: string;
  collection: string;
  name: string;
  /** The engine's own name of the index. */
  engineName: string;
  fields: { path: string; order: 'asc' | 'desc' }[];
  unique: boolean;
  status: 'building' | 'ready';
  createdAt: string;
}

/** A new index to build. */
export type NewIndex = Omit<IndexRow, 'engineName' | 'status'>;

/** What building an index came to: the index, or why there is none (nothing is left behind). */
export type IndexBuild =
  | { ok: true; index: IndexRow }
  | { ok: false; reason: 'taken' }
  | { ok: false; reason: 'too_many'; limit: number }
  /** The engine's limit on an index's definition (PostgreSQL keeps it in one catalog row of 8 kB). */
  | { ok: false; reason: 'too_large' }
  | { ok: false; reason: 'duplicates'; examples: unknown[][] };

/** Validators of collections (per cluster and collection) and what the collection list reads. */
export interface SchemaStore {
  /** The collection's validator, or null. */
  getValidator(clusterId: string, collection: string): Promise<ValidatorRow | null>;
  /** Every validator of the cluster. */
  listValidators(clusterId: string): Promise<ValidatorRow[]>;
  /** Sets or replaces the validator; a replaced one keeps its `createdAt`. Returns what is stored. */
  putValidator(row: ValidatorRow): Promise<ValidatorRow>;
  /** Removes the validator; false when there was none. */
  deleteValidator(clusterId: string, collection: string): Promise<boolean>;
  /** The indexes of a collection (of every collection of the cluster when left out), by collection and name. */
  listIndexes(clusterId: string, collection?: string): Promise<IndexRow[]>;
  /**
   * Records the index `building`, builds the engine's index (PostgreSQL: concurrently, writes go on), then marks
   * it `ready`. A unique index over documents that already share values is not built; nothing is left behind.
   */
  createIndex(index: NewIndex, limit: number): Promise<IndexBuild>;
  /** Drops the engine's index and its record; false when there was none. */
  dropIndex(clusterId: string, collection: string, name: string): Promise<boolean>;
  /** The collections of the cluster that were ever written to, by name, with their sizes. */
  collections(clusterId: string): Promise<CollectionStats[]>;
  /** Up to `limit` documents of the collection with ids after `afterId`, by id: a check's walk over all of them. */
  documentsAfter(
    clusterId: string,
    collection: string,
    afterId: string,
    limit: number,
  ): Promise<{ id: string; data: string }[]>;
  /**
   * One step of a collection drop: removes up to `limit` documents last written at or before `cutoff` (with the
   * collection's count), in one transaction. Returns how many it removed; 0 when none of them is left.
   */
  purgeDocuments(clusterId: string, collection: string, cutoff: string, limit: number): Promise<number>;
  /** The last step of a drop: removes the collection's events made at or before `cutoff`, with their deliveries. */
  purgeEvents(clusterId: string, collection: string, cutoff: string): Promise<number>;
}

/** The 409 `unique_violation` of a write that would break a unique index. */
export function uniqueViolation(index: Pick<IndexRow, 'name' | 'fields'>): Violation {
  return {
    code: 'unique_violation',
    message: `Another document of the collection has the same ${index.fields
      .map((field) => field.path)
      .join(', ')} (unique index "${index.name}")`,
    details: { index: index.name, fields: index.fields.map((field) => field.path) },
  };
}
