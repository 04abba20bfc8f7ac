import {
  checkDocumentBody,
  type dataRoutes,
  ifMatchHolds,
  ifNoneMatchHolds,
  type JsonObject,
  mergePatch,
  parseSort,
  routeById,
  type WebhookEvent,
} from '@dataplatform/contract';
import { matches } from '@dataplatform/contract/sql';
import { type Answer, ApiError } from './answers.js';
import type { ChangeLog } from './change-log.js';
import { type DocumentStore, ownFields } from './document-store.js';
import { entityTagOf } from './entity-tags.js';
import type { KeyRing } from './keys.js';
import { checkChangesFilter } from './realtime-operations.js';
import type { OperationInput } from './request-input.js';
import type { WebhookStore } from './webhook-store.js';

/** Everything the operations read and write. */
export interface MockModel {
  documents: DocumentStore;
  changes: ChangeLog;
  webhooks: WebhookStore;
  keys: KeyRing;
}

/**
 * One route's behaviour: validated input in, answer out. Synchronous, so an idempotent write is checked and
 * recorded atomically. Document routes use `store`; others reach the rest of the model.
 */
export type Operation = (input: OperationInput, store: DocumentStore, model: MockModel) => Answer;

function notFound(collection: string, id: string): ApiError {
  return new ApiError('not_found', `Document "${id}" not found in collection "${collection}"`, {
    collection,
    id,
  });
}

function checkBody(body: unknown, allowId: boolean): asserts body is JsonObject {
  const violation = checkDocumentBody(body, { allowId });
  if (violation) throw ApiError.fromViolation(violation);
}

/**
 * The stored document a write changes: 404 when missing (whatever If-Match says, as on the server), 412
 * `precondition_failed` when If-Match names none of its tags.
 */
function current({ params, conditions }: OperationInput, store: DocumentStore) {
  const doc = store.get(params.collection!, params.id!);
  if (!doc) throw notFound(params.collection!, params.id!);
  const ifMatch = conditions?.ifMatch;
  if (ifMatch !== undefined && !ifMatchHolds(ifMatch, entityTagOf(doc))) {
    throw new ApiError(
      'precondition_failed',
      `Document "${params.id}" in collection "${params.collection}" changed: If-Match names none of its current entity tags`,
    );
  }
  return doc;
}

/** A document answer with its entity tag. */
function tagged(status: number, doc: unknown, headers: Record<string, string> = {}): Answer {
  return { status, body: doc, headers: { ...headers, ETag: entityTagOf(doc) } };
}

/** The address of a stored document, built from the contract's path of the get route. */
function locationOf(collection: string, id: string): string {
  return routeById('data.get')
    .path.replace('{collection}', encodeURIComponent(collection))
    .replace('{id}', encodeURIComponent(id));
}

const list: Operation = ({ params, query }, store) => {
  const { limit, skip, sort } = query as { limit: number; skip: number; sort?: string };
  const keys = parseSort(sort);
  if (!Array.isArray(keys)) throw ApiError.fromViolation(keys);
  const documents = store.list(params.collection!, keys);
  return {
    status: 200,
    body: { data: documents.slice(skip, skip + limit), total: documents.length, limit, skip },
  };
};

const create: Operation = ({ params, body }, store) => {
  const collection = params.collection!;
  checkBody(body, true);
  const doc = store.insert(collection, body);
  if (!doc) {
    throw new ApiError('conflict', `Document "${body._id}" already exists in collection "${collection}"`, {
      collection,
      id: body._id,
    });
  }
  return tagged(201, doc, { Location: locationOf(collection, doc._id) });
};

const get: Operation = ({ params, conditions }, store) => {
  const doc = store.get(params.collection!, params.id!);
  if (!doc) throw notFound(params.collection!, params.id!);
  const answer = tagged(200, doc);
  const ifNoneMatch = conditions?.ifNoneMatch;
  // The caller's copy is current: no body, the tag again.
  if (ifNoneMatch !== undefined && ifNoneMatchHolds(ifNoneMatch, answer.headers!.ETag!))
    return { status: 304, body: null, headers: answer.headers! };
  return answer;
};

const replace: Operation = (input, store) => {
  // `_id` in the body is refused: the path names the document, and a second, possibly different id would be ambiguous.
  checkBody(input.body, false);
  current(input, store);
  return tagged(200, store.replace(input.params.collection!, input.params.id!, input.body));
};

const update: Operation = (input, store) => {
  checkBody(input.body, false);
  const old = current(input, store);
  // An empty patch changes nothing: the document keeps its _updatedAt and no event is written.
  if (Object.keys(input.body).length === 0) return tagged(200, old);
  const merged = mergePatch(ownFields(old), input.body) as JsonObject;
  return tagged(200, store.replace(input.params.collection!, input.params.id!, merged));
};

const remove: Operation = (input, store) => {
  current(input, store);
  store.delete(input.params.collection!, input.params.id!);
  return { status: 200, body: { _id: input.params.id, deleted: true } };
};

/** One server-sent event as the server writes it. */
function sseFrame(id: string, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * A change stream: a new one sends its start id alone, as the server's does; one resumed by `Last-Event-ID` (or
 * `?since=`) sends the collection's events kept after it, or one `error` event (`gone`) for an id not kept. Then it
 * ends, and the client reconnects after the last id it got (see ChangeLog).
 */
const changes: Operation = (input, _store, { changes }) => {
  const filter = checkChangesFilter(input.query);
  const collection = input.params.collection!;
  const since = input.lastEventId ?? (input.query.since as string | undefined);
  let text: string;
  if (since === undefined) text = `retry: 500\nid: ${changes.start()}\n\n`;
  else {
    const events = changes.after(collection, since);
    // An event the filter drops still moves the stream on, as on the server: its id alone, no event.
    const frame = (event: WebhookEvent) =>
      !filter || matches(filter, event.data) ? sseFrame(event.id, event.type, event) : `id: ${event.id}\n\n`;
    text = events
      ? `retry: 500\n${events.map(frame).join('')}`
      : sseFrame(since, 'error', {
          code: 'gone',
          message: `Event ${since} is not kept (or never was an event of this collection): reload, then stream from now.`,
        });
  }
  return { status: 200, body: undefined, raw: { contentType: 'text/event-stream; charset=utf-8', text } };
};

/** The behaviour of every document route, by operation id. */
export const documentOperations: Record<(typeof dataRoutes)[number]['id'], Operation> = {
  'data.changes': changes,
  'data.list': list,
  'data.create': create,
  'data.get': get,
  'data.replace': replace,
  'data.update': update,
  'data.delete': remove,
};
