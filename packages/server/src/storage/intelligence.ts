import type { Dataset, Model } from '@dataplatform/contract';

/** A model as stored: its record and, once trained, the fitted model as JSON text. */
export interface StoredModel {
  model: Model;
  /** The fitted model (`services/intelligence/artifact.ts`); null until trained. */
  artifact: string | null;
}

/**
 * Datasets, their rows and models. A record is kept whole as JSON beside the columns that select it; a dataset's
 * rows are copies of documents as JSON text, numbered from 0 in the order they were copied.
 */
export interface IntelligenceStore {
  createDataset(dataset: Dataset): Promise<void>;
  findDataset(id: string): Promise<Dataset | null>;
  /** Datasets of a cluster, newest first. */
  listDatasets(clusterId: string): Promise<Dataset[]>;
  /** Writes the record; false when the dataset is gone. */
  updateDataset(dataset: Dataset): Promise<boolean>;
  /** Removes the dataset and its rows; false when there was none. */
  deleteDataset(id: string): Promise<boolean>;
  /** In one transaction, the dataset's rows become `rows` (a rebuild after a restart replaces a partial copy). */
  replaceRows(datasetId: string, rows: readonly string[]): Promise<void>;
  /** Up to `limit` rows from row `skip` on, as JSON text. */
  rows(datasetId: string, skip: number, limit: number): Promise<string[]>;
  createModel(model: Model): Promise<void>;
  findModel(id: string): Promise<StoredModel | null>;
  /** Models of a cluster, newest first. */
  listModels(clusterId: string): Promise<Model[]>;
  /** Writes the record and the artifact; false when the model is gone. */
  updateModel(model: Model, artifact: string | null): Promise<boolean>;
  deleteModel(id: string): Promise<boolean>;
}
