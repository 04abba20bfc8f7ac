import { checkCollectionName, type dataRoutes, parseSort } from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import { eventFilter } from '../changes/filter.js';
import type { ChangeStreams } from '../changes/streams.js';
import { ApiError } from '../http/errors.js';
import type { RouteHandlers } from '../http/route-call.js';
import { rejectViolation } from '../http/validate.js';
import type { DocumentService } from '../services/documents.js';

/** The document routes (`/api/v1/data/{collection}[/{id}]`) over the document service. */
export function dataHandlers(
  documents: DocumentService,
  changes: ChangeStreams,
): RouteHandlers<typeof dataRoutes> {
  return {
    'data.changes': async ({ params, query, principal, request, reply }) => {
      // A reserved name is no collection: its stream could never carry an event.
      rejectViolation(checkCollectionName(params.collection));
      // An unusable condition is refused before the stream opens.
      const filter = await eventFilter(query.where, query.params);
      const header = request.headers['last-event-id'];
      const lastEventId = typeof header === 'string' && header !== '' ? header : query.since;
      // The stream takes the reply over; nothing is left to send.
      const asked = { principal, collection: params.collection, filter };
      await changes.serve(request, reply, asked, lastEventId);
      return undefined;
    },
    'data.list': ({ params, query, principal }) => {
      const sort = parseSort(query.sort);
      if (!Array.isArray(sort)) throw new ApiError(sort.code, sort.message, sort.details);
      return documents.list(refOf(params, principal), query.limit, query.skip, sort);
    },
    'data.get': ({ params, principal }) => documents.get(refOf(params, principal), params.id),
    'data.create': async ({ params, principal, body, idempotency, reply }) => {
      const answer = await documents.create(refOf(params, principal), body, idempotency);
      reply.header('location', `/api/v1/data/${params.collection}/${encodeURIComponent(answer.id!)}`);
      return answer;
    },
    'data.replace': ({ request, params, principal, body, idempotency }) =>
      documents.replace(refOf(params, principal), params.id, body, idempotency, ifMatchOf(request)),
    'data.update': ({ request, params, principal, body, idempotency }) =>
      documents.update(refOf(params, principal), params.id, body, idempotency, ifMatchOf(request)),
    'data.delete': ({ request, params, principal, idempotency }) =>
      documents.delete(refOf(params, principal), params.id, idempotency, ifMatchOf(request)),
  };
}

/** The If-Match header a conditional write carries; an empty one is no condition. */
function ifMatchOf(request: FastifyRequest): string | undefined {
  const header = request.headers['if-match'];
  return header ? header : undefined;
}

function refOf(params: { collection: string }, principal: { clusterId: string }) {
  return { clusterId: principal.clusterId, collection: params.collection };
}
