import { randomUUID } from 'node:crypto';
import postgres, { type Options, type Sql } from 'postgres';
import type { AuthChanges } from '../auth-cache.js';

/** The channel on which instances announce writes that change what authentication decides, and answer them. */
export const AUTH_CHANNEL = 'dataplatform_auth_changes';

/** Names the listening connection of each instance, so that a writer knows whose answers to wait for. */
const LISTENER_PREFIX = 'dataplatform-auth-';

/** A write is answered without an instance's acknowledgement after this long (an instance that stopped). */
const ACK_TIMEOUT_MS = 2_000;
/** Pause before listening again after the listening connection closed. */
const RELISTEN_MS = 200;

/** An announcement waiting for the other instances' acknowledgements. */
interface Waiting {
  missing: Set<string>;
  done: () => void;
}

/**
 * Announces and hears changes to what authentication decides, over LISTEN/NOTIFY on a connection of its own, so
 * that it knows when that connection is lost: from then until it listens again, nothing is cached.
 *
 * Exact across instances: a write is announced after it commits, in the statement that also lists the instances
 * listening then, and it is answered only once each of them acknowledged, which each does right after emptying its
 * cache. An instance that starts listening later reads what was committed. `maxAgeMs` bounds the one case left: a
 * writer that died between its commit and its announcement.
 */
export class PostgresAuthChanges implements AuthChanges {
  hearing = false;
  private changed: () => void = () => {};
  private readonly listener: Sql;
  private readonly source = randomUUID();
  private sequence = 0;
  private readonly waiting = new Map<string, Waiting>();
  private relistening = false;
  private closed = false;

  constructor(
    private readonly sql: Sql,
    url: string,
    readonly maxAgeMs = 1_000,
  ) {
    const options: Options<Record<string, never>> & { onnotify: (channel: string, payload: string) => void } =
      {
        max: 1,
        idle_timeout: 0,
        max_lifetime: null,
        fetch_types: false,
        onnotice: () => {},
        onnotify: (_channel, payload) => this.heard(payload),
        onclose: () => this.lost(),
        connection: { application_name: LISTENER_PREFIX + this.source },
      };
    this.listener = postgres(url, options);
  }

  /** Starts listening; resolves when it does, or when it failed and will be tried again. */
  async listen(): Promise<void> {
    try {
      await this.listener.unsafe(`LISTEN ${AUTH_CHANNEL}`);
    } catch {
      this.lost();
      return;
    }
    if (this.closed) return;
    this.hearing = true;
    // What was announced before the LISTEN took effect went unheard.
    this.changed();
  }

  watch(changed: () => void): void {
    this.changed = changed;
  }

  async announce(): Promise<void> {
    const token = `change:${this.source}:${++this.sequence}`;
    let timer: NodeJS.Timeout | undefined;
    try {
      const [row] = await this.sql<{ listeners: string[] }[]>`
        SELECT pg_notify(${AUTH_CHANNEL}, ${token}), array(
          SELECT substr(application_name, ${LISTENER_PREFIX.length + 1}) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name LIKE ${`${LISTENER_PREFIX}%`}
        ) AS listeners`;
      const missing = new Set(row!.listeners.filter((source) => source !== this.source));
      if (missing.size === 0 || !this.hearing) return;
      await new Promise<void>((resolve) => {
        this.waiting.set(token, { missing, done: resolve });
        timer = setTimeout(resolve, ACK_TIMEOUT_MS);
      });
    } catch {
      // The write has committed: its answer stands. Other instances forget their answers within `maxAgeMs`.
    } finally {
      clearTimeout(timer);
      this.waiting.delete(token);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.hearing = false;
    for (const { done } of this.waiting.values()) done();
    await this.listener.end({ timeout: 1 });
  }

  private heard(payload: string): void {
    const [kind, source, rest] = splitOnce(payload);
    if (kind === 'change') {
      // This instance's own writes empty its cache themselves (AuthCache.write).
      if (source === this.source) return;
      this.changed();
      this.acknowledge(payload);
    } else if (kind === 'ack') {
      // `ack:<acknowledging instance>:<the announcement>`
      const waiting = this.waiting.get(rest);
      waiting?.missing.delete(source);
      if (waiting?.missing.size === 0) waiting.done();
    }
  }

  /** Tells the writer that this instance has emptied its cache. */
  private acknowledge(token: string): void {
    this.sql`SELECT pg_notify(${AUTH_CHANNEL}, ${`ack:${this.source}:${token}`})`.catch(() => {
      // The writer stops waiting after ACK_TIMEOUT_MS.
    });
  }

  private lost(): void {
    this.hearing = false;
    this.changed();
    if (this.closed || this.relistening) return;
    this.relistening = true;
    setTimeout(() => {
      this.relistening = false;
      if (!this.closed) void this.listen();
    }, RELISTEN_MS).unref();
  }
}

/** `kind:source:rest`, where `rest` may hold more colons. */
function splitOnce(payload: string): [string, string, string] {
  const first = payload.indexOf(':');
  const second = payload.indexOf(':', first + 1);
  return [payload.slice(0, first), payload.slice(first + 1, second), payload.slice(second + 1)];
}
