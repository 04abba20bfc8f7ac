import { rateTierOf } from '@dataplatform/contract';
import type { KeyAuthRow, StoredKey } from './keys.js';

/**
 * How the instances of one database tell each other of writes that change what authentication decides. On SQLite
 * the server is the one instance, but an operator command may write the same file (`sqlite/auth-changes.ts`);
 * PostgreSQL has other instances and uses LISTEN/NOTIFY.
 */
export interface AuthChanges {
  /** Longest an answer may be trusted: a bound for changes that could go unheard (a writer that died mid-way). */
  readonly maxAgeMs: number;
  /** Whether changes made elsewhere are heard right now; nothing is cached while they are not. */
  readonly hearing: boolean;
  /** Calls `changed` for every change made elsewhere, and whenever some may have gone unheard. */
  watch(changed: () => void): void;
  /** Tells the other instances of a change this one committed; resolves once they have been told. */
  announce(): Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  key: StoredKey;
  /** Until when the entry holds: the end of a running trial (its tier changes then), or its largest age. */
  until: number;
}

/**
 * The keys recently used for authentication, so that a request costs no database read for its key, on any engine.
 * Exact: it is emptied before and after every write that could change an answer (keys, robots, users, billing
 * accounts, clusters; see `cached-stores.ts`) and on every change another instance announces, and an answer read
 * while such a write ran, or before such a change was heard, is not kept. Usage history and `lastUsedAt` are
 * written too, but authentication reads neither.
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<() => void>();
  /** Moves on every emptying, so that a read that began before one is not kept after it. */
  private generation = 0;
  private writing = 0;

  constructor(
    private readonly changes: AuthChanges,
    private readonly capacity = 10_000,
  ) {
    changes.watch(() => this.forget());
  }

  /** The cached answer for this key, when there is one; the same object until it is forgotten. */
  cached(keyId: string): StoredKey | undefined {
    const entry = this.entries.get(keyId);
    if (entry === undefined) return undefined;
    if (Date.now() < entry.until) return entry.key;
    this.entries.delete(keyId);
    return undefined;
  }

  /** The cached answer, else what `read` finds, kept when nothing could have changed it meanwhile. */
  async find(keyId: string, read: (keyId: string) => Promise<KeyAuthRow | null>): Promise<StoredKey | null> {
    const hit = this.cached(keyId);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const row = await read(keyId);
    if (row === null) return null;
    const now = Date.now();
    const { billing, ...rest } = row;
    const key: StoredKey = { ...rest, tier: rateTierOf(billing, now) };
    if (generation === this.generation && this.writing === 0 && this.changes.hearing) {
      const trialEnds = billing.trialExpiresAt === null ? Number.NaN : Date.parse(billing.trialExpiresAt);
      const until = now + this.changes.maxAgeMs;
      this.remember(keyId, { key, until: trialEnds > now ? Math.min(trialEnds, until) : until });
    }
    return key;
  }

  /** Runs a write that could change what authentication decides, emptying the cache before and after it. */
  async write<T>(work: () => Promise<T>): Promise<T> {
    this.writing++;
    this.forget();
    try {
      return await work();
    } finally {
      this.writing--;
      this.forget();
      await this.changes.announce();
    }
  }

  /**
   * Calls `listener` after every change that could alter what authentication decides, made here or heard from
   * another instance (and before such a write here, when nothing changed yet). Returns a function that stops it.
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private forget(): void {
    this.generation++;
    this.entries.clear();
    for (const listener of this.listeners) listener();
  }

  private remember(keyId: string, entry: Entry): void {
    // Bounded: past capacity the oldest entry goes (Map keeps insertion order).
    if (this.entries.size >= this.capacity && !this.entries.has(keyId)) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(keyId, entry);
  }
}
