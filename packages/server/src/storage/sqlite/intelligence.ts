import type { Dataset, Model } from '@dataplatform/contract';
import type Database from 'better-sqlite3';
import type { IntelligenceStore, StoredModel } from '../intelligence.js';

type Body = { body: string };

/** Datasets, their rows and models on SQLite. */
export class SqliteIntelligence implements IntelligenceStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      insertDataset: db.prepare<[string, string, string, string, string]>(
        'INSERT INTO intelligence_datasets (id, cluster_id, status, created_at, body) VALUES (?, ?, ?, ?, ?)',
      ),
      findDataset: db.prepare<[string], Body>('SELECT body FROM intelligence_datasets WHERE id = ?'),
      listDatasets: db.prepare<[string], Body>(
        'SELECT body FROM intelligence_datasets WHERE cluster_id = ? ORDER BY created_at DESC, id DESC',
      ),
      updateDataset: db.prepare<[string, string, string]>(
        'UPDATE intelligence_datasets SET status = ?, body = ? WHERE id = ?',
      ),
      deleteDataset: db.prepare<[string]>('DELETE FROM intelligence_datasets WHERE id = ?'),
      deleteRows: db.prepare<[string]>('DELETE FROM intelligence_dataset_rows WHERE dataset_id = ?'),
      insertRow: db.prepare<[string, number, string]>(
        'INSERT INTO intelligence_dataset_rows (dataset_id, n, data) VALUES (?, ?, ?)',
      ),
      rows: db.prepare<[string, number, number], { data: string }>(
        'SELECT data FROM intelligence_dataset_rows WHERE dataset_id = ? AND n >= ? ORDER BY n LIMIT ?',
      ),
      insertModel: db.prepare<[string, string, string, string, string]>(
        'INSERT INTO intelligence_models (id, cluster_id, status, created_at, body) VALUES (?, ?, ?, ?, ?)',
      ),
      findModel: db.prepare<[string], Body & { artifact: string | null }>(
        'SELECT body, artifact FROM intelligence_models WHERE id = ?',
      ),
      listModels: db.prepare<[string], Body>(
        'SELECT body FROM intelligence_models WHERE cluster_id = ? ORDER BY created_at DESC, id DESC',
      ),
      updateModel: db.prepare<[string, string, string | null, string]>(
        'UPDATE intelligence_models SET status = ?, body = ?, artifact = ? WHERE id = ?',
      ),
      deleteModel: db.prepare<[string]>('DELETE FROM intelligence_models WHERE id = ?'),
    };
  }

  async createDataset(d: Dataset): Promise<void> {
    this.stmt.insertDataset.run(d._id, d.clusterId, d.status, d.createdAt, JSON.stringify(d));
  }

  async findDataset(id: string): Promise<Dataset | null> {
    const row = this.stmt.findDataset.get(id);
    return row ? (JSON.parse(row.body) as Dataset) : null;
  }

  async listDatasets(clusterId: string): Promise<Dataset[]> {
    return this.stmt.listDatasets.all(clusterId).map((row) => JSON.parse(row.body) as Dataset);
  }

  async updateDataset(d: Dataset): Promise<boolean> {
    return this.stmt.updateDataset.run(d.status, JSON.stringify(d), d._id).changes > 0;
  }

  async deleteDataset(id: string): Promise<boolean> {
    return this.db.transaction(() => {
      this.stmt.deleteRows.run(id);
      return this.stmt.deleteDataset.run(id).changes > 0;
    })();
  }

  async replaceRows(datasetId: string, rows: readonly string[]): Promise<void> {
    this.db.transaction(() => {
      this.stmt.deleteRows.run(datasetId);
      rows.forEach((data, n) => {
        this.stmt.insertRow.run(datasetId, n, data);
      });
    })();
  }

  async rows(datasetId: string, skip: number, limit: number): Promise<string[]> {
    return this.stmt.rows.all(datasetId, skip, limit).map((row) => row.data);
  }

  async createModel(m: Model): Promise<void> {
    this.stmt.insertModel.run(m._id, m.clusterId, m.status, m.createdAt, JSON.stringify(m));
  }

  async findModel(id: string): Promise<StoredModel | null> {
    const row = this.stmt.findModel.get(id);
    return row ? { model: JSON.parse(row.body) as Model, artifact: row.artifact } : null;
  }

  async listModels(clusterId: string): Promise<Model[]> {
    return this.stmt.listModels.all(clusterId).map((row) => JSON.parse(row.body) as Model);
  }

  async updateModel(m: Model, artifact: string | null): Promise<boolean> {
    return this.stmt.updateModel.run(m.status, JSON.stringify(m), artifact, m._id).changes > 0;
  }

  async deleteModel(id: string): Promise<boolean> {
    return this.stmt.deleteModel.run(id).changes > 0;
  }
}
