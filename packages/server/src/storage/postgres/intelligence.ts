import type { Dataset, Model } from '@dataplatform/contract';
import type { Sql } from 'postgres';
import type { IntelligenceStore, StoredModel } from '../intelligence.js';

/** Rows a dataset build writes per statement. */
const INSERT_CHUNK = 1000;

/** Datasets, their rows and models on PostgreSQL. */
export class PostgresIntelligence implements IntelligenceStore {
  constructor(private readonly sql: Sql) {}

  async createDataset(d: Dataset): Promise<void> {
    await this.sql`INSERT INTO intelligence_datasets (id, cluster_id, status, created_at, body)
      VALUES (${d._id}, ${d.clusterId}, ${d.status}, ${d.createdAt}, ${JSON.stringify(d)})`;
  }

  async findDataset(id: string): Promise<Dataset | null> {
    const [row] = await this.sql<{ body: string }[]>`SELECT body FROM intelligence_datasets WHERE id = ${id}`;
    return row ? (JSON.parse(row.body) as Dataset) : null;
  }

  async listDatasets(clusterId: string): Promise<Dataset[]> {
    const rows = await this.sql<{ body: string }[]>`SELECT body FROM intelligence_datasets
      WHERE cluster_id = ${clusterId} ORDER BY created_at DESC, id DESC`;
    return rows.map((row) => JSON.parse(row.body) as Dataset);
  }

  async updateDataset(d: Dataset): Promise<boolean> {
    const result = await this
      .sql`UPDATE intelligence_datasets SET status = ${d.status}, body = ${JSON.stringify(d)}
      WHERE id = ${d._id}`;
    return result.count > 0;
  }

  async deleteDataset(id: string): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      await tx`DELETE FROM intelligence_dataset_rows WHERE dataset_id = ${id}`;
      return (await tx`DELETE FROM intelligence_datasets WHERE id = ${id}`).count > 0;
    });
  }

  async replaceRows(datasetId: string, rows: readonly string[]): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`DELETE FROM intelligence_dataset_rows WHERE dataset_id = ${datasetId}`;
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        const chunk = rows
          .slice(start, start + INSERT_CHUNK)
          .map((data, i) => ({ dataset_id: datasetId, n: start + i, data }));
        await tx`INSERT INTO intelligence_dataset_rows ${tx(chunk, 'dataset_id', 'n', 'data')}`;
      }
    });
  }

  async rows(datasetId: string, skip: number, limit: number): Promise<string[]> {
    const rows = await this.sql<{ data: string }[]>`SELECT data FROM intelligence_dataset_rows
      WHERE dataset_id = ${datasetId} AND n >= ${skip} ORDER BY n LIMIT ${limit}`;
    return rows.map((row) => row.data);
  }

  async createModel(m: Model): Promise<void> {
    await this.sql`INSERT INTO intelligence_models (id, cluster_id, status, created_at, body)
      VALUES (${m._id}, ${m.clusterId}, ${m.status}, ${m.createdAt}, ${JSON.stringify(m)})`;
  }

  async findModel(id: string): Promise<StoredModel | null> {
    const [row] = await this.sql<{ body: string; artifact: string | null }[]>`
      SELECT body, artifact FROM intelligence_models WHERE id = ${id}`;
    return row ? { model: JSON.parse(row.body) as Model, artifact: row.artifact } : null;
  }

  async listModels(clusterId: string): Promise<Model[]> {
    const rows = await this.sql<{ body: string }[]>`SELECT body FROM intelligence_models
      WHERE cluster_id = ${clusterId} ORDER BY created_at DESC, id DESC`;
    return rows.map((row) => JSON.parse(row.body) as Model);
  }

  async updateModel(m: Model, artifact: string | null): Promise<boolean> {
    const result = await this
      .sql`UPDATE intelligence_models SET status = ${m.status}, body = ${JSON.stringify(m)},
      artifact = ${artifact} WHERE id = ${m._id}`;
    return result.count > 0;
  }

  async deleteModel(id: string): Promise<boolean> {
    return (await this.sql`DELETE FROM intelligence_models WHERE id = ${id}`).count > 0;
  }
}
