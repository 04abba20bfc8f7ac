import type {
  DeletedResponse,
  Model,
  ModelCreate,
  ModelCreateInCluster,
  ModelList,
  PredictRequest,
  PredictResult,
} from '../../contract-types.js';
import type { APIPromise } from '../../core/api-promise.js';
import { APIResource } from '../../core/resource.js';
import type { RequestOptions } from '../../internal/request-options.js';
import { segment } from '../../internal/utils.js';
import type { IntelligenceClusterParams } from './datasets.js';

const modelPath = (id: string, suffix = '') => `/api/intelligence/models/${segment(id, 'model id')}${suffix}`;

/**
 * `/api/intelligence/models` (session token): models trained on datasets, and their predictions; `train` and
 * `predictByKey` are the same with an API key (`experiment:write`, `query:execute`).
 */
export class Models extends APIResource {
  /**
   * Trains a model on a dataset. On up to 10,000 rows the answer is the model `ready` (or `failed`), with metrics
   * measured on its held-out rows; on more it is `training`, fitted by a `model.train` job.
   * @example
   * const model = await client.intelligence.models.create({
   *   name: 'species', datasetId: dataset._id, task: 'classification', target: 'species',
   * });
   */
  create(params: ModelCreateInCluster, options?: RequestOptions): APIPromise<Model> {
    return this._client.post('/api/intelligence/models', { ...options, body: params });
  }

  /** Trains a model on a dataset of the key's cluster (an API key with `experiment:write`). */
  train(params: ModelCreate, options?: RequestOptions): APIPromise<Model> {
    return this._client.post('/api/v1/intelligence/models', { ...options, body: params });
  }

  /** The models of a cluster, newest first. */
  list(params: IntelligenceClusterParams = {}, options?: RequestOptions): APIPromise<ModelList> {
    return this._client.get('/api/intelligence/models', {
      ...options,
      query: { clusterId: params.clusterId },
    });
  }

  /** One model; NotFoundError when it is not of a cluster you are a member of. */
  get(id: string, options?: RequestOptions): APIPromise<Model> {
    return this._client.get(modelPath(id), options);
  }

  delete(id: string, options?: RequestOptions): APIPromise<DeletedResponse> {
    return this._client.delete(modelPath(id), options);
  }

  /**
   * Predicts the rows: values in the target's own type, and for classification the probability of each class.
   * @example const { predictions } = await client.intelligence.models.predict(model._id, { rows: [{ petal_length: 1.4 }] });
   */
  predict(id: string, params: PredictRequest, options?: RequestOptions): APIPromise<PredictResult> {
    return this._client.post(modelPath(id, '/predict'), { ...options, body: params });
  }

  /** The same prediction with an API key holding `query:execute`, for a model of the key's cluster. */
  predictByKey(id: string, params: PredictRequest, options?: RequestOptions): APIPromise<PredictResult> {
    return this._client.post(`/api/v1/intelligence/models/${segment(id, 'model id')}/predict`, {
      ...options,
      body: params,
    });
  }
}
