import {
  checkCollectionName,
  dataRoutes,
  invalidDocumentId,
  isDocumentId,
  ListDocumentsQuery,
  mayReadDocuments,
  parseSort,
  type RouteDefinition,
} from '@dataplatform/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Authenticator, grantedScopes, type Principal } from '../auth/authenticate.js';
import { ApiError } from '../http/errors.js';
import { rejectViolation, validate } from '../http/validate.js';
import type { Answer, DocumentService } from '../services/documents.js';
import { idempotencyContext } from '../services/idempotency.js';
import { receiptText } from '../services/write-receipts.js';
import type { CollectionRef } from '../storage/documents.js';

type RouteId = (typeof dataRoutes)[number]['id'];

interface Call {
  request: FastifyRequest;
  reply: FastifyReply;
  principal: Principal;
  ref: CollectionRef;
  id: string;
}

type Handler = (call: Call) => Promise<string | Answer>;

/** Writes that answer with the stored document: a caller that may not read gets its receipt instead. */
const ANSWERS_A_DOCUMENT = new Set<string>(['data.create', 'data.replace', 'data.update']);

function collectionRef(request: FastifyRequest, principal: Principal): CollectionRef {
  const collection = (request.params as { collection: string }).collection;
  rejectViolation(checkCollectionName(collection));
  return { clusterId: principal.clusterId, collection };
}

function documentId(request: FastifyRequest): string {
  const id = (request.params as { id?: string }).id ?? '';
  if (!isDocumentId(id)) rejectViolation(invalidDocumentId('id'));
  return id;
}

function idempotency(call: Call) {
  const { request } = call;
  return idempotencyContext(
    call.principal.clusterId,
    request.headers['idempotency-key'],
    request.method,
    request.url.split('?')[0]!,
    request.rawBody ?? '',
  );
}

function handlers(documents: DocumentService): Record<RouteId, Handler> {
  return {
    'data.list': async ({ request, ref }) => {
      const query = validate(ListDocumentsQuery, request.query, 'query');
      const sort = parseSort(query.sort);
      if (!Array.isArray(sort)) throw new ApiError(sort.code, sort.message, sort.details);
      return documents.list(ref, query.limit, query.skip, sort);
    },
    'data.get': ({ ref, id }) => documents.get(ref, id),
    'data.create': async (call) => {
      const answer = await documents.create(call.ref, call.request.body, idempotency(call));
      call.reply.header('location', `/api/v1/data/${call.ref.collection}/${encodeURIComponent(answer.id!)}`);
      return answer;
    },
    'data.replace': (call) => documents.replace(call.ref, call.id, call.request.body, idempotency(call)),
    'data.update': (call) => documents.update(call.ref, call.id, call.request.body, idempotency(call)),
    'data.delete': (call) => documents.delete(call.ref, call.id, idempotency(call)),
  };
}

/** Registers every data route of the contract; a route without a handler fails at start-up. */
export function registerData(app: FastifyInstance, auth: Authenticator, documents: DocumentService): void {
  const byId = handlers(documents);
  for (const route of dataRoutes as readonly RouteDefinition[]) {
    const handle = byId[route.id as RouteId];
    if (!handle) throw new Error(`No handler for route ${route.id}`);
    const hasId = route.path.endsWith('{id}');
    app.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ':$1'),
      // Credentials are checked before the body is read: a caller without access learns nothing about its input.
      onRequest: async (request, reply) => {
        request.principal = await auth.authenticate(request, reply, route.scopes);
      },
      handler: async (request, reply) => {
        const principal = request.principal!;
        const ref = collectionRef(request, principal);
        const id = hasId ? documentId(request) : '';
        const result = await handle({ request, reply, principal, ref, id });
        reply.type('application/json; charset=utf-8');
        if (typeof result === 'string') return reply.code(route.success.status).send(result);
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        const mayRead = !ANSWERS_A_DOCUMENT.has(route.id) || mayReadDocuments(grantedScopes(principal));
        return reply.code(result.status).send(mayRead ? result.body : receiptText(result.body));
      },
    });
  }
}
