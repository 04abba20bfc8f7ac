import { DENIED_STATUSES } from '@dataplatform/contract';
import type { UsageEntry, UsageQuery, UsageRecord } from './usage.js';

/**
 * The usage history is stored as batches: one row per key per write of the recorder, holding that write's
 * requests of the key as JSON, with their count, their denied count and the span of their times. A busy key
 * costs one row per write instead of one per request, so recording stays cheap next to answering; the counts give
 * totals without reading the entries, and the span lets a page stop reading early.
 */
export interface UsageBatch {
  keyId: string;
  /** Earliest and latest request, ISO 8601. */
  firstAt: string;
  lastAt: string;
  requests: number;
  denied: number;
  /** The requests as JSON, oldest first, in the compact form of `PackedBatch`. */
  entries: string;
}

/**
 * The JSON of a batch's requests: times as milliseconds after `at`, and the method, address and user agent (few
 * distinct values per batch) as indexes into lists, so a batch is about half the size of one object per request.
 */
interface PackedBatch {
  at: number;
  methods: string[];
  ips: string[];
  agents: (string | null)[];
  /** `[ms after at, method index, ip index, agent index, status, path]`, oldest first. */
  rows: [number, number, number, number, number, string][];
}

type PackedEntry = [
  at: number,
  method: string,
  path: string,
  status: number,
  ip: string,
  userAgent: string | null,
];

/** Index of `value` in `list`, appending it when new; lists hold a handful of values, so a scan is cheapest. */
function indexIn<T>(list: T[], value: T): number {
  const at = list.indexOf(value);
  return at === -1 ? list.push(value) - 1 : at;
}

function isSorted(list: readonly UsageRecord[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i]!.at < list[i - 1]!.at) return false;
  return true;
}

/** Groups records by key into batches, each key's requests in time order. */
export function packUsage(records: readonly UsageRecord[]): UsageBatch[] {
  const byKey = new Map<string, UsageRecord[]>();
  for (const record of records) {
    const list = byKey.get(record.keyId);
    if (list) list.push(record);
    else byKey.set(record.keyId, [record]);
  }
  const batches: UsageBatch[] = [];
  for (const [keyId, list] of byKey) {
    // Recorded as answered, so nearly always in order already; the stable sort settles the rest.
    if (!isSorted(list)) list.sort((a, b) => a.at - b.at);
    const first = list[0]!.at;
    const packed: PackedBatch = { at: first, methods: [], ips: [], agents: [], rows: [] };
    let denied = 0;
    for (const r of list) {
      if (DENIED_STATUSES.has(r.status)) denied++;
      packed.rows.push([
        r.at - first,
        indexIn(packed.methods, r.method),
        indexIn(packed.ips, r.ip),
        indexIn(packed.agents, r.userAgent),
        r.status,
        r.path,
      ]);
    }
    batches.push({
      keyId,
      firstAt: new Date(first).toISOString(),
      lastAt: new Date(list[list.length - 1]!.at).toISOString(),
      requests: list.length,
      denied,
      entries: JSON.stringify(packed),
    });
  }
  return batches;
}

/** A batch's requests, oldest first. */
function unpack(entries: string): PackedEntry[] {
  const { at, methods, ips, agents, rows } = JSON.parse(entries) as PackedBatch;
  return rows.map(([ms, method, ip, agent, status, path]) => [
    at + ms,
    methods[method]!,
    path,
    status,
    ips[ip]!,
    agents[agent] ?? null,
  ]);
}

/** A stored batch as a page reads it. */
export interface StoredBatch {
  lastAt: string;
  entries: string;
}

/** Reads a key's batches, latest `lastAt` first, `count` of them from `offset`. */
export type BatchReader = (offset: number, count: number) => Promise<StoredBatch[]>;

const CHUNK = 32;

interface Candidate {
  entry: PackedEntry;
  /** Position of the batch in reading order, and of the entry in its batch: ties of time keep a stable order. */
  batch: number;
  index: number;
}

const newestFirst = (a: Candidate, b: Candidate) =>
  b.entry[0] - a.entry[0] || a.batch - b.batch || b.index - a.index;

/**
 * One page of a key's history, newest first. Batches written by different server instances can overlap in time,
 * so entries are merged: batches are read latest-ending first until the page's oldest entry is newer than the end
 * of the next batch, which then cannot hold anything for the page.
 */
export async function readUsagePage(read: BatchReader, query: UsageQuery): Promise<UsageEntry[]> {
  const wanted = query.skip + query.limit;
  const denied = query.outcome === 'denied';
  let kept: Candidate[] = [];
  let batchNumber = 0;
  for (let offset = 0; ; offset += CHUNK) {
    const batches = await read(offset, CHUNK);
    for (const batch of batches) {
      if (kept.length >= wanted && Date.parse(batch.lastAt) < kept[wanted - 1]!.entry[0]) {
        return toEntries(kept.slice(query.skip, wanted));
      }
      const entries = unpack(batch.entries);
      for (let index = 0; index < entries.length; index++) {
        const entry = entries[index]!;
        if (query.outcome === undefined || DENIED_STATUSES.has(entry[3]) === denied) {
          kept.push({ entry, batch: batchNumber, index });
        }
      }
      batchNumber++;
      if (kept.length >= wanted) {
        kept.sort(newestFirst);
        // Entries past the page can never come back into it: every later batch only adds candidates.
        kept = kept.slice(0, wanted);
      }
    }
    if (batches.length < CHUNK) break;
  }
  kept.sort(newestFirst);
  return toEntries(kept.slice(query.skip, wanted));
}

function toEntries(candidates: Candidate[]): UsageEntry[] {
  return candidates.map(({ entry: [at, method, path, status, ip, userAgent] }) => ({
    method,
    path,
    outcome: DENIED_STATUSES.has(status) ? 'denied' : 'success',
    status,
    timestamp: new Date(at).toISOString(),
    ip,
    userAgent,
  }));
}

/** The number of entries a query matches, from a key's summed counts. */
export function usageTotal(
  sums: { requests: number; denied: number },
  outcome: UsageQuery['outcome'],
): number {
  if (outcome === 'denied') return sums.denied;
  if (outcome === 'success') return sums.requests - sums.denied;
  return sums.requests;
}
