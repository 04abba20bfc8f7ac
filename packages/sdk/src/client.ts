import { APIPromise } from './core/api-promise.js';
import { APIError, DataPlatformError } from './core/error.js';
import { Page, type PageBody, PagePromise } from './core/pagination.js';
import { isNode, isNodeBuiltinFetch } from './internal/detect.js';
import type { ServerSentEvent } from './internal/event-stream.js';
import { requestEventStream } from './internal/event-stream-request.js';
import { type Fetch, fetchTransport, globalFetchTransport } from './internal/fetch-transport.js';
import { applyHeaders, type HeadersInput } from './internal/headers.js';
import { type RateLimitInfo, readRateLimit } from './internal/rate-limit.js';
import { newRequestId } from './internal/request-id.js';
import type { CallOptions, EventStreamOptions, Query, RequestOptions } from './internal/request-options.js';
import { MAX_RETRY_AFTER_MS } from './internal/retry.js';
import { parseErrorBody, send } from './internal/send.js';
import { type HeaderSource, isStreamBody, type RawResponse, type Transport } from './internal/transport.js';
import { undiciTransport } from './internal/undici-transport.js';
import { queryString, readEnv, uuid } from './internal/utils.js';
import { Auth } from './resources/auth.js';
import { Backups } from './resources/backups.js';
import { Billing } from './resources/billing.js';
import { Clusters } from './resources/clusters.js';
import { Data } from './resources/data.js';
import { Functions } from './resources/functions.js';
import { Intelligence } from './resources/intelligence/index.js';
import { Jobs } from './resources/jobs.js';
import { Keys } from './resources/keys.js';
import { Logs } from './resources/logs.js';
import { Metrics } from './resources/metrics.js';
import { Notifications } from './resources/notifications.js';
import { Robots } from './resources/robots.js';
import { Schema } from './resources/schema.js';
import { Settings } from './resources/settings.js';
import { Triggers } from './resources/triggers.js';
import { Webhooks } from './resources/webhooks.js';

/** The base address used when neither the `baseUrl` option nor DATAPLATFORM_BASE_URL is set. */
export const DEFAULT_BASE_URL = 'http://localhost:5000';

/** Options of `new DataPlatform()`; every one but `fetch` and the credentials can also be set per call. */
export interface ClientOptions {
  /** API key, sent as `X-API-Key` (default: DATAPLATFORM_API_KEY). */
  apiKey?: string | undefined;
  /** Session token (from sign-in) or API key, sent as `Authorization: Bearer` (default: DATAPLATFORM_TOKEN). */
  token?: string | undefined;
  /** Server address (default: DATAPLATFORM_BASE_URL, else http://localhost:5000). */
  baseUrl?: string | undefined;
  /** Milliseconds to wait for each attempt (default 60 000). */
  timeout?: number | undefined;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number | undefined;
  /**
   * Longest server-requested wait before a retry, in milliseconds (default 60 000). After a 429 the API asks for
   * `Retry-After: 60`: the client waits that long, then retries; set a lower value to get the RateLimitError at
   * once instead of waiting.
   */
  maxRetryWait?: number | undefined;
  /** A fetch to send every request with, instead of the built-in transport. */
  fetch?: Fetch | undefined;
  /** Headers sent with every request; `null` removes one the client would send. */
  defaultHeaders?: HeadersInput | undefined;
}

let onNode: boolean | undefined;

/** The server sends a keep-alive comment every 15 s: three missed ones mean the connection is gone. */
const DEFAULT_IDLE_TIMEOUT = 45_000;

/**
 * The dataplatform API client.
 * @example const client = new DataPlatform({ apiKey: 'svc_…' }); const order = await client.data.get('orders', id);
 */
export class DataPlatform {
  /** The API key in use, if any. */
  readonly apiKey: string | undefined;
  /** The server address, without a trailing slash. */
  readonly baseUrl: string;
  /** Default per-attempt timeout in milliseconds. */
  readonly timeout: number;
  /** Default number of retries. */
  readonly maxRetries: number;
  /** Default longest `Retry-After` wait, in milliseconds. */
  readonly maxRetryWait: number;
  /** Documents in collections: `/api/v1/data/{collection}`. */
  readonly data: Data;
  /** Accounts and sessions: `/api/auth/*`. */
  readonly auth: Auth;
  /** Background jobs such as imports: `/api/v1/data/jobs` with a key, `/api/jobs` with a session token. */
  readonly jobs: Jobs;
  /** The activity log: `/api/logs/*`. */
  readonly logs: Logs;
  /** Request metrics and totals of a cluster: `/api/metrics/*`. */
  readonly metrics: Metrics;
  /** The signed-in user's notifications, their preferences and their live stream: `/api/notifications/*`. */
  readonly notifications: Notifications;
  /** Account settings, such as the IP allowlist: `/api/settings/*`. */
  readonly settings: Settings;
  /** The signed-in user's API keys: `/api/keys/*`. */
  readonly keys: Keys;
  /** Robots (service accounts) and their keys: `/api/robots/*`. */
  readonly robots: Robots;
  /** Clusters, their members and invitations: `/api/clusters/*`. */
  readonly clusters: Clusters;
  /** The billing account: plan, usage, invoices and payments, `/api/billing/*`. */
  readonly billing: Billing;
  /** Webhook subscriptions, deliveries and attempts: `/api/v1/data/webhooks`. */
  readonly webhooks: Webhooks;
  /** Serverless functions and their runs: `/api/functions/*`, `/api/v1/functions/{name}/invoke`. */
  readonly functions: Functions;
  /** Validators, indexes and the collections of a cluster: `/api/schema/*`, read only under `/api/v1/schema/*`. */
  readonly schema: Schema;
  /** Backups of clusters, their archives and restores: `/api/backups/*` (session token only). */
  readonly backups: Backups;
  /** Datasets, models and predictions: `/api/intelligence/*` (session) and `/api/v1/intelligence/*` (key). */
  readonly intelligence: Intelligence;
  /** Triggers on document events and schedules: `/api/triggers/*`, `/api/v1/triggers/{id}/run`. */
  readonly triggers: Triggers;

  readonly #options: ClientOptions;
  #token: string | undefined;
  readonly #headers: Record<string, string>;
  readonly #origin: string;
  readonly #isDefaultBaseUrl: boolean;
  readonly #fetch: Transport | undefined;
  #undici: Transport | undefined;
  #rateLimit: RateLimitInfo | null = null;
  readonly #readHeaders = (headers: HeaderSource) => {
    const info = readRateLimit(headers);
    if (info) this.#rateLimit = info;
  };

  constructor(options: ClientOptions = {}) {
    this.#options = options;
    this.apiKey = options.apiKey ?? readEnv('DATAPLATFORM_API_KEY');
    this.#token = options.token ?? readEnv('DATAPLATFORM_TOKEN');
    const baseUrl = options.baseUrl ?? readEnv('DATAPLATFORM_BASE_URL');
    this.#isDefaultBaseUrl = baseUrl === undefined;
    const url = parseURL(baseUrl ?? DEFAULT_BASE_URL);
    // `localhost:5000` parses as a URL with the scheme "localhost:", so the scheme is checked too.
    if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
      throw new DataPlatformError(
        `Invalid baseUrl ${JSON.stringify(baseUrl)}: expected an http(s) address such as ${DEFAULT_BASE_URL}`,
      );
    }
    // Rebuilt from origin and path, so every request URL starts with the origin string the undici pool is keyed by.
    this.#origin = url.origin;
    this.baseUrl = url.origin + url.pathname.replace(/\/+$/, '');
    this.timeout = options.timeout ?? 60_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.maxRetryWait = options.maxRetryWait ?? MAX_RETRY_AFTER_MS;
    this.#fetch = options.fetch ? fetchTransport(options.fetch) : undefined;
    this.#headers = { accept: 'application/json' };
    if (this.apiKey) this.#headers['x-api-key'] = this.apiKey;
    if (this.#token) this.#headers.authorization = `Bearer ${this.#token}`;
    applyHeaders(this.#headers, options.defaultHeaders);
    this.data = new Data(this);
    this.auth = new Auth(this);
    this.jobs = new Jobs(this);
    this.logs = new Logs(this);
    this.metrics = new Metrics(this);
    this.notifications = new Notifications(this);
    this.settings = new Settings(this);
    this.keys = new Keys(this);
    this.robots = new Robots(this);
    this.clusters = new Clusters(this);
    this.billing = new Billing(this);
    this.webhooks = new Webhooks(this);
    this.functions = new Functions(this);
    this.triggers = new Triggers(this);
    this.schema = new Schema(this);
    this.backups = new Backups(this);
    this.intelligence = new Intelligence(this);
  }

  /** The bearer token in use, if any: the `token` option, or one stored by `auth.signIn(…, { storeToken: true })`. */
  get token(): string | undefined {
    return this.#token;
  }

  /**
   * Sends `token` as `Authorization: Bearer` from now on; `undefined` stops sending one.
   * @example client.setToken((await client.auth.signIn({ email, password })).token);
   */
  setToken(token: string | undefined): void {
    this.#token = token;
    if (token) this.#headers.authorization = `Bearer ${token}`;
    else delete this.#headers.authorization;
  }

  /**
   * The API key's rate limit as the last answer with `RateLimit-*` headers told it, or null before any such answer
   * (keys without a limit never get one). `remaining` counts down with each request of the current window.
   * @example if (client.rateLimit?.remaining === 0) await sleep(client.rateLimit.resetSeconds * 1000);
   */
  get rateLimit(): RateLimitInfo | null {
    return this.#rateLimit;
  }

  /** A new client with these options changed, e.g. `client.withOptions({ timeout: 5_000 })`. */
  withOptions(options: ClientOptions): DataPlatform {
    return new DataPlatform({ ...this.#options, token: this.#token, ...options });
  }

  /** GET a path under the base address, e.g. a route the SDK does not wrap yet. */
  get<T = unknown>(path: string, options?: CallOptions): APIPromise<T> {
    return this.request('GET', path, options);
  }

  /** POST a JSON body. */
  post<T = unknown>(path: string, options?: CallOptions): APIPromise<T> {
    return this.request('POST', path, options);
  }

  /** PUT a JSON body. */
  put<T = unknown>(path: string, options?: CallOptions): APIPromise<T> {
    return this.request('PUT', path, options);
  }

  /** PATCH with a JSON body. */
  patch<T = unknown>(path: string, options?: CallOptions): APIPromise<T> {
    return this.request('PATCH', path, options);
  }

  /** DELETE a path. */
  delete<T = unknown>(path: string, options?: CallOptions): APIPromise<T> {
    return this.request('DELETE', path, options);
  }

  /** Sends one call (with retries) and parses its JSON answer; `onData` sees the parsed answer first. */
  request<T = unknown>(
    method: string,
    path: string,
    options: CallOptions = {},
    onData?: (data: T) => void,
  ): APIPromise<T> {
    const parse = onData
      ? (raw: RawResponse) => {
          const data = parseJSON(raw) as T;
          onData(data);
          return data;
        }
      : (parseJSON as (raw: RawResponse) => T);
    return new APIPromise(this.#send(method, path, options), parse);
  }

  /** GETs a list route and returns its first page, which can walk the later ones with the same options. */
  getAPIList<Item>(path: string, query: Query, options: RequestOptions = {}): PagePromise<Item> {
    const fetchPage = (skip: number): PagePromise<Item> =>
      new PagePromise(
        this.#send('GET', path, { ...options, query: { ...query, skip } }),
        // Some lists (a key's usage) answer `{ data, total }` only: the page then takes its place from the query.
        (raw) => {
          const body = parseJSON(raw) as Partial<PageBody<Item>> & Pick<PageBody<Item>, 'data' | 'total'>;
          const limit = typeof query.limit === 'number' ? query.limit : body.data.length;
          return new Page({ limit, skip, ...body }, fetchPage);
        },
      );
    return fetchPage(typeof query.skip === 'number' ? query.skip : 0);
  }

  /**
   * GETs a server-sent event stream and yields its events until the server ends it; stop early with `break` or
   * `options.signal`. `timeout` bounds the wait for the answer, `idleTimeout` the silence between two bytes.
   * Never retried: a caller resumes after the last event it got with `lastEventId`.
   */
  getEventStream(
    path: string,
    options: EventStreamOptions = {},
  ): AsyncGenerator<ServerSentEvent, void, undefined> {
    const headers = applyHeaders(
      { ...this.#headers, accept: 'text/event-stream', 'x-request-id': newRequestId() },
      options.headers,
    );
    if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
    return requestEventStream(() => this.#options.fetch ?? globalThis.fetch, {
      url: this.baseUrl + path + queryString(options.query),
      headers,
      timeout: options.timeout ?? this.timeout,
      idleTimeout: options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT,
      signal: options.signal,
      target: { baseUrl: this.baseUrl, isDefault: this.#isDefaultBaseUrl },
      onHeaders: this.#readHeaders,
      onOpen: options.onOpen,
      onResumePoint: options.onResumePoint,
    });
  }

  /**
   * GETs a binary answer (a backup's archive) and hands over the fetch `Response` unread, so its body can be
   * streamed to a file. Never retried; an error status rejects with its APIError.
   */
  async getBinary(path: string, options: RequestOptions & { query?: Query } = {}): Promise<Response> {
    const requestId = newRequestId();
    const headers = applyHeaders({ ...this.#headers, 'x-request-id': requestId }, options.headers);
    const fetch = this.#options.fetch ?? globalThis.fetch;
    const response = await fetch(this.baseUrl + path + queryString(options.query), {
      method: 'GET',
      headers,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    this.#readHeaders(response.headers);
    if (response.status >= 400) {
      const body = await response.text().catch(() => '');
      throw APIError.generate(response.status, parseErrorBody(body), undefined, response.headers, requestId);
    }
    return response;
  }

  async #send(method: string, path: string, options: CallOptions): Promise<RawResponse> {
    const hasBody = options.body !== undefined || options.rawBody !== undefined;
    const write = method !== 'GET' && method !== 'HEAD';
    // Every call names itself, so that an error without an answer still has an id to quote; a caller's own
    // X-Request-Id (in `options.headers`) wins.
    const headers: Record<string, string> = { ...this.#headers, 'x-request-id': newRequestId() };
    if (write || hasBody || options.headers) {
      applyHeaders(headers, options.headers);
      if (options.body !== undefined) headers['content-type'] ??= 'application/json';
      if (write) headers['idempotency-key'] = options.idempotencyKey ?? headers['idempotency-key'] ?? uuid();
    }
    return send(
      {
        method,
        url: this.baseUrl + path + queryString(options.query),
        headers,
        body: options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
        timeout: options.timeout ?? this.timeout,
        signal: options.signal,
      },
      {
        target: { baseUrl: this.baseUrl, isDefault: this.#isDefaultBaseUrl },
        // A stream is read as it is sent, so there is nothing left to send again.
        maxRetries: isStreamBody(options.rawBody) ? 0 : (options.maxRetries ?? this.maxRetries),
        maxRetryWait: options.maxRetryWait ?? this.maxRetryWait,
        onHeaders: this.#readHeaders,
        transport: () => this.#transport(),
      },
    );
  }

  /** The `fetch` option; else undici when `fetch` is Node's untouched built-in; else whatever `fetch` is now. */
  #transport(): Transport {
    if (this.#fetch) return this.#fetch;
    onNode ??= isNode();
    if (onNode && isNodeBuiltinFetch(globalThis.fetch)) {
      this.#undici ??= undiciTransport(this.#origin, this.timeout);
      return this.#undici;
    }
    return globalFetchTransport;
  }
}

function parseURL(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** Parses a JSON answer; an empty body gives undefined. */
function parseJSON(raw: RawResponse): unknown {
  if (raw.body === '') return undefined;
  try {
    return JSON.parse(raw.body);
  } catch (error) {
    throw new DataPlatformError(
      `Could not parse the ${raw.status} answer as JSON: ${raw.body.slice(0, 200)}`,
      { cause: error },
    );
  }
}
