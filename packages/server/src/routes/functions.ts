import type { functionKeyRoutes, functionRoutes } from '@dataplatform/contract';
import type { RouteHandlers } from '../http/route-call.js';
import type { FunctionService } from '../services/functions.js';

/** `/api/functions/*` (session) and `/api/v1/functions/{name}/invoke` (key); the role checks are the service's. */
export function functionHandlers(
  functions: FunctionService,
): RouteHandlers<typeof functionRoutes | typeof functionKeyRoutes> {
  return {
    'functions.create': ({ request, body }) => functions.create(request.session!.userId, body),
    'functions.list': ({ request, query }) => functions.list(request.session!.userId, query),
    'functions.get': ({ request, params }) => functions.get(request.session!.userId, params.id),
    'functions.deploy': ({ request, params, body }) =>
      functions.deploy(request.session!.userId, params.id, body),
    'functions.delete': ({ request, params }) => functions.delete(request.session!.userId, params.id),
    'functions.invoke': ({ request, params, body }) =>
      functions.invoke(request.session!.userId, params.id, body),
    'functions.invocations': ({ request, params, query }) =>
      functions.invocations(request.session!.userId, params.id, query),
    'functions.invokeByName': ({ principal, params, body }) =>
      functions.invokeByName(principal.clusterId, params.name, body),
  };
}
