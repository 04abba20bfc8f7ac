import {
  checkDocumentBody,
  type dataRoutes,
  type JsonObject,
  mergePatch,
  parseSort,
  routeById,
} from '@dataplatform/contract';
import { type Answer, ApiError } from './answers.js';
import { type DocumentStore, ownFields } from './document-store.js';
import type { KeyRing } from './keys.js';
import type { OperationInput } from './request-input.js';
import type { WebhookStore } from './webhook-store.js';

/** Everything the operations read and write. */
export interface MockModel {
  documents: DocumentStore;
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
  return { status: 201, body: doc, headers: { Location: locationOf(collection, doc._id) } };
};

const get: Operation = ({ params }, store) => {
  const doc = store.get(params.collection!, params.id!);
  if (!doc) throw notFound(params.collection!, params.id!);
  return { status: 200, body: doc };
};

const replace: Operation = ({ params, body }, store) => {
  // `_id` in the body is refused: the path names the document, and a second, possibly different id would be ambiguous.
  checkBody(body, false);
  const doc = store.replace(params.collection!, params.id!, body);
  if (!doc) throw notFound(params.collection!, params.id!);
  return { status: 200, body: doc };
};

const update: Operation = ({ params, body }, store) => {
  checkBody(body, false);
  const old = store.get(params.collection!, params.id!);
  if (!old) throw notFound(params.collection!, params.id!);
  // An empty patch changes nothing: the document keeps its _updatedAt and no event is written.
  if (Object.keys(body).length === 0) return { status: 200, body: old };
  const merged = mergePatch(ownFields(old), body) as JsonObject;
  return { status: 200, body: store.replace(params.collection!, params.id!, merged) };
};

const remove: Operation = ({ params }, store) => {
  if (!store.delete(params.collection!, params.id!)) throw notFound(params.collection!, params.id!);
  return { status: 200, body: { _id: params.id, deleted: true } };
};

/** The behaviour of every document route, by operation id. */
export const documentOperations: Record<(typeof dataRoutes)[number]['id'], Operation> = {
  'data.list': list,
  'data.create': create,
  'data.get': get,
  'data.replace': replace,
  'data.update': update,
  'data.delete': remove,
};
