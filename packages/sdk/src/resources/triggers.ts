import type { Trigger, TriggerCreate, TriggerRun, TriggerUpdate } from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** Query of `client.triggers.list()`. */
export interface TriggerListParams {
  /** Only the triggers of this cluster. */
  clusterId?: string;
  limit?: number;
  skip?: number;
}

/** Query of `client.triggers.runs()`. */
export interface TriggerRunListParams {
  limit?: number;
  skip?: number;
}

/**
 * Triggers of the signed-in user's clusters, under `/api/triggers` (session token): run a function or a webhook on
 * document events or on a cron schedule. `runByKey` is the same manual run with an API key holding
 * `orchestration:execute`.
 * @example
 * await client.triggers.create({
 *   name: 'nightly',
 *   source: { type: 'schedule', cron: '0 3 * * *', timezone: 'Europe/Berlin' },
 *   target: { function: fn._id },
 * });
 */
export class Triggers extends APIResource {
  /** Creates it; BadRequestError for an invalid cron, NotFoundError for a target outside the cluster. */
  create(body: TriggerCreate, options?: RequestOptions): APIPromise<Trigger> {
    return this._client.post('/api/triggers', { ...options, body });
  }

  /** The triggers you can see: await for a page, or `for await` for every one. */
  list(params: TriggerListParams = {}, options?: RequestOptions): PagePromise<Trigger> {
    return this._client.getAPIList(
      '/api/triggers',
      { clusterId: params.clusterId, limit: params.limit, skip: params.skip },
      options,
    );
  }

  get(id: string, options?: RequestOptions): APIPromise<Trigger> {
    return this._client.get(path(id), options);
  }

  /** Changes its name, source, target or state; fields left out stay. */
  update(id: string, body: TriggerUpdate, options?: RequestOptions): APIPromise<Trigger> {
    return this._client.patch(path(id), { ...options, body });
  }

  delete(id: string, options?: RequestOptions): APIPromise<{ _id: string; deleted: true }> {
    return this._client.delete(path(id), options);
  }

  /** It fires nothing until resumed. */
  pause(id: string, options?: RequestOptions): APIPromise<Trigger> {
    return this._client.post(`${path(id)}/pause`, options);
  }

  resume(id: string, options?: RequestOptions): APIPromise<Trigger> {
    return this._client.post(`${path(id)}/resume`, options);
  }

  /** One manual run now with `{ manual: true }`; the answer is the queued run. */
  run(id: string, options?: RequestOptions): APIPromise<TriggerRun> {
    return this._client.post(`${path(id)}/run`, options);
  }

  /** The same manual run with an API key holding `orchestration:execute`. */
  runByKey(id: string, options?: RequestOptions): APIPromise<TriggerRun> {
    return this._client.post(`/api/v1/triggers/${segment(id, 'trigger id')}/run`, options);
  }

  /** Its runs, newest first. */
  runs(id: string, params: TriggerRunListParams = {}, options?: RequestOptions): PagePromise<TriggerRun> {
    return this._client.getAPIList(`${path(id)}/runs`, { limit: params.limit, skip: params.skip }, options);
  }
}

function path(id: string): string {
  return `/api/triggers/${segment(id, 'trigger id')}`;
}
