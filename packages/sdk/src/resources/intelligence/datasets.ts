import type {
  Dataset,
  DatasetCreate,
  DatasetList,
  DatasetRows,
  DeletedResponse,
} from '../../contract-types.js';
import type { APIPromise } from '../../core/api-promise.js';
import { APIResource } from '../../core/resource.js';
import type { RequestOptions } from '../../internal/request-options.js';
import { segment } from '../../internal/utils.js';

/** Which cluster a list acts on. */
export interface IntelligenceClusterParams {
  /** A cluster you are a member of; your default cluster when left out. */
  clusterId?: string;
}

/** A page of a dataset's rows. */
export interface DatasetRowsParams {
  /** 1 to 1000 (100). */
  limit?: number;
  skip?: number;
}

const datasetPath = (id: string, suffix = '') =>
  `/api/intelligence/datasets/${segment(id, 'dataset id')}${suffix}`;

/** `/api/intelligence/datasets`: snapshots of collections, with field types and statistics. Session token only. */
export class Datasets extends APIResource {
  /**
   * Copies a collection's rows (those `sql` selects, when given) into a dataset. A collection of up to 10,000
   * documents answers the dataset `ready` (or `failed`); a larger one `building`, copied by a `dataset.build` job.
   * @example const dataset = await client.intelligence.datasets.create({ name: 'iris', collection: 'iris' });
   */
  create(params: DatasetCreate, options?: RequestOptions): APIPromise<Dataset> {
    return this._client.post('/api/intelligence/datasets', { ...options, body: params });
  }

  /** The datasets of a cluster, newest first. */
  list(params: IntelligenceClusterParams = {}, options?: RequestOptions): APIPromise<DatasetList> {
    return this._client.get('/api/intelligence/datasets', {
      ...options,
      query: { clusterId: params.clusterId },
    });
  }

  /** One dataset; NotFoundError when it is not of a cluster you are a member of. */
  get(id: string, options?: RequestOptions): APIPromise<Dataset> {
    return this._client.get(datasetPath(id), options);
  }

  /** A page of the dataset's rows, in the order they were copied; ConflictError while it is not ready. */
  rows(id: string, params: DatasetRowsParams = {}, options?: RequestOptions): APIPromise<DatasetRows> {
    return this._client.get(datasetPath(id, '/rows'), { ...options, query: { ...params } });
  }

  /** Deletes the dataset and its rows; its models stay. */
  delete(id: string, options?: RequestOptions): APIPromise<DeletedResponse> {
    return this._client.delete(datasetPath(id), options);
  }
}
