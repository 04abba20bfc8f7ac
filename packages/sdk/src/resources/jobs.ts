import type { Job, JobList, JobStatus } from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import { segment, sleep } from '../internal/utils.js';

// The contract's list, repeated: the SDK has the contract's types (src/contract-types.ts), never its values.
const FINISHED: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];

/** Options of `client.jobs.watch()` and `client.jobs.wait()`. */
export interface WatchOptions extends RequestOptions {
  /** Milliseconds between two looks at the job (default 1000). */
  intervalMs?: number;
}

/**
 * Background jobs (imports now): `/api/v1/data/jobs` with an API key (the key's cluster), `/api/jobs` with a
 * session token (every cluster of the user). Cancelling needs a session token.
 * @example const job = await client.jobs.wait(id, { intervalMs: 500 });
 */
export class Jobs extends APIResource {
  /** One page of jobs, newest first. */
  list(params: { limit?: number; skip?: number } = {}, options?: RequestOptions): APIPromise<JobList> {
    return this._client.get(this.#base(), { ...options, query: { limit: params.limit, skip: params.skip } });
  }

  /** One job; NotFoundError for a job of another cluster or user. */
  get(id: string, options?: RequestOptions): APIPromise<Job> {
    return this._client.get(`${this.#base()}/${segment(id, 'job id')}`, options);
  }

  /** Cancels a queued or running job (session token only); ConflictError when it had finished. */
  cancel(id: string, options?: RequestOptions): APIPromise<Job> {
    return this._client.post(`/api/jobs/${segment(id, 'job id')}/cancel`, options);
  }

  /**
   * The job each time it changes, until it has finished (the last value yielded is the finished job).
   * @example for await (const job of client.jobs.watch(id)) console.log(job.status, job.counts.inserted);
   */
  async *watch(id: string, options: WatchOptions = {}): AsyncGenerator<Job, void, undefined> {
    const { intervalMs = 1000, ...request } = options;
    let last = '';
    for (;;) {
      const job = await this.get(id, request);
      const seen = JSON.stringify(job);
      if (seen !== last) yield job;
      last = seen;
      if (FINISHED.includes(job.status)) return;
      await sleep(intervalMs, request.signal);
    }
  }

  /** Polls the job until it has finished and returns it. */
  async wait(id: string, options: WatchOptions = {}): Promise<Job> {
    let job: Job | undefined;
    for await (job of this.watch(id, options));
    return job!;
  }

  /** Key holders read their cluster's jobs under the data API; signed-in users read all of theirs. */
  #base(): string {
    const token = this._client.token;
    const sessionOnly = !this._client.apiKey && token !== undefined && !token.startsWith('svc_');
    return sessionOnly ? '/api/jobs' : '/api/v1/data/jobs';
  }
}
