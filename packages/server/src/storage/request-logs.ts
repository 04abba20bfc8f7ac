/** One answered request, as it is handed to storage. */
export interface RequestLogRecord {
  id: string;
  /** When it was answered, in milliseconds since the epoch. */
  at: number;
  method: string;
  /** Path and query, already redacted. */
  path: string;
  status: number;
  durationMs: number;
  keyId: string | null;
  userId: string | null;
  /** The cluster the request acted on, when it acted on one. */
  clusterId: string | null;
  ip: string;
  userAgent: string | null;
  requestId: string;
}

/** Whose entries a list may show. */
export type RequestLogScope =
  /** The user's own requests and those to the clusters the user is a member of. */
  | { userId: string }
  /** The requests to one cluster. */
  | { clusterId: string };

/** Filters and page of a list. */
export interface RequestLogFilter {
  /** Status codes from `min` to `max`, inclusive. */
  status?: { min: number; max: number } | undefined;
  method?: string | undefined;
  pathPrefix?: string | undefined;
  keyId?: string | undefined;
  clusterId?: string | undefined;
  /** Milliseconds since the epoch: from inclusive, to exclusive. */
  from?: number | undefined;
  to?: number | undefined;
  limit: number;
  skip: number;
}

/** The request log (`/api/logs/requests`). */
export interface RequestLogStore {
  /** Appends records in one transaction. */
  append(records: readonly RequestLogRecord[]): Promise<void>;
  /** A page of the entries in scope that pass the filter, newest first, and how many pass it. */
  list(
    scope: RequestLogScope,
    filter: RequestLogFilter,
  ): Promise<{ rows: RequestLogRecord[]; total: number }>;
  /** The newest entry with this request id in scope, or null. */
  find(scope: RequestLogScope, requestId: string): Promise<RequestLogRecord | null>;
  /**
   * Removes entries answered before `before` (ms since the epoch); answers how many rows went. An engine that keeps
   * entries in batches removes a batch once its last entry is that old (a batch spans a fraction of a second).
   */
  purge(before: number): Promise<number>;
}
