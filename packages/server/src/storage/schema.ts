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
  /** The collections of the cluster that were ever written to, by name, with their sizes. */
  collections(clusterId: string): Promise<CollectionStats[]>;
}
