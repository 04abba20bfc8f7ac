import type { BatchPredictionCreate, Job } from '../../contract-types.js';
import type { APIPromise } from '../../core/api-promise.js';
import { APIResource } from '../../core/resource.js';
import type { RequestOptions } from '../../internal/request-options.js';

/** `/api/intelligence/predictions`: a model's predictions of a whole collection, written to another. */
export class Predictions extends APIResource {
  /**
   * Starts a `prediction.batch` job writing one document `{ sourceId, prediction, probabilities? }` per row of
   * `collection` to `outputCollection` (under the row's id).
   * @example await client.jobs.wait((await client.intelligence.predictions.create({ modelId, collection: 'new_flowers', outputCollection: 'scored' }))._id);
   */
  create(params: BatchPredictionCreate, options?: RequestOptions): APIPromise<Job> {
    return this._client.post('/api/intelligence/predictions', { ...options, body: params });
  }
}
