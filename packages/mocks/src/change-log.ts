import type { WebhookEvent } from '@dataplatform/contract';
import type { DocumentChange } from './document-store.js';
import { createIdGenerator } from './ids.js';

/** How many events the mocks keep for change streams to replay; older ones are `gone`, as on the server. */
const KEPT_EVENTS = 1000;

/**
 * The document events of a mock instance, in order, for the change streams (`GET …/{collection}/changes`). The
 * mocks answer a stream at once and end it: it carries the events kept after the caller's `Last-Event-ID`, and the
 * client's reconnection (the SDK's `subscribe`, an EventSource) asks again after the last one it got.
 */
export class ChangeLog {
  #events: WebhookEvent[] = [];
  /** Positions handed out as `start_…` ids: where a stream that started then resumes. */
  readonly #starts = new Map<string, number>();
  #captured = 0;
  readonly #nextId = createIdGenerator();

  clear(): void {
    this.#events = [];
    this.#starts.clear();
  }

  capture(change: DocumentChange): void {
    this.#captured++;
    this.#events.push({
      id: `evt_${this.#nextId()}`,
      type: change.type,
      createdAt: new Date().toISOString(),
      collection: change.collection,
      documentId: change.documentId,
      data: change.data,
      ...(change.previous ? { previous: change.previous } : {}),
    });
    if (this.#events.length > KEPT_EVENTS) this.#events.shift();
  }

  /** A start id for a new stream: resuming from it replays every event captured afterwards. */
  start(): string {
    const id = `start_${new Date().toISOString()}_${this.#nextId()}`;
    this.#starts.set(id, this.#captured);
    if (this.#starts.size > KEPT_EVENTS) this.#starts.delete(this.#starts.keys().next().value!);
    return id;
  }

  /** The collection's events after `id` (an event or a start id), or undefined when `id` is not kept. */
  after(collection: string, id: string): WebhookEvent[] | undefined {
    const firstKept = this.#captured - this.#events.length;
    const started = this.#starts.get(id);
    let from: number;
    if (started !== undefined) {
      if (started < firstKept) return undefined;
      from = started - firstKept;
    } else {
      const at = this.#events.findIndex((event) => event.id === id);
      if (at < 0 || this.#events[at]!.collection !== collection) return undefined;
      from = at + 1;
    }
    return this.#events.slice(from).filter((event) => event.collection === collection);
  }
}
