/** Outcome of a request in a key's usage history. */
export type UsageOutcome = 'success' | 'denied';

/** One request made with a key, as it is handed to storage. */
export interface UsageRecord {
  keyId: string;
  method: string;
  path: string;
  status: number;
  /** When it was answered, in milliseconds since the epoch. */
  at: number;
  ip: string;
  userAgent: string | null;
}

/** One request in a key's usage history, as it is listed. */
export interface UsageEntry {
  method: string;
  path: string;
  outcome: UsageOutcome;
  status: number;
  timestamp: string;
  ip: string;
  userAgent: string | null;
}

/** A page query of a key's usage history. */
export interface UsageQuery {
  outcome?: UsageOutcome | undefined;
  limit: number;
  skip: number;
}

/** The usage history of API keys. */
export interface KeyUsageStore {
  /**
   * Appends records and moves each key's `lastUsedAt` to its latest record, in one transaction. Records of keys
   * deleted meanwhile are dropped.
   */
  record(records: readonly UsageRecord[]): Promise<void>;
  /** A page of one key's entries, newest first, and the number of matching entries. */
  list(keyId: string, query: UsageQuery): Promise<{ rows: UsageEntry[]; total: number }>;
}
