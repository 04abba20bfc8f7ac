import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from './errors.js';

function toApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError('payload_too_large');
  if (error.statusCode === 413) return new ApiError('payload_too_large');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('validation_error', error.message);
  }
  return new ApiError('internal_error');
}

/** A route's path as a regular expression over the request's path (`:name` is one segment, `*` the rest). */
function pathPattern(url: string): RegExp {
  const segments = url.split('/').map((segment) => {
    if (segment.startsWith(':')) return '[^/]+';
    if (segment === '*') return '.*';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${segments.join('/')}$`);
}

/** How specific a route's path is, segment by segment: a literal (0) before a parameter (1) before the rest (2). */
function specificity(url: string): number[] {
  return url.split('/').map((segment) => (segment.startsWith(':') ? 1 : segment === '*' ? 2 : 0));
}

function compareSpecificity(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The methods each path has, learned as routes are registered, so that a known path asked with another method is
 * answered 405 with `Allow` rather than 404.
 */
class MethodsByPath {
  private readonly paths = new Map<string, { pattern: RegExp; rank: number[]; methods: Set<string> }>();

  add(url: string, methods: string | string[]): void {
    let entry = this.paths.get(url);
    if (!entry) {
      entry = { pattern: pathPattern(url), rank: specificity(url), methods: new Set() };
      this.paths.set(url, entry);
    }
    for (const method of Array.isArray(methods) ? methods : [methods]) entry.methods.add(method);
  }

  /**
   * The methods of the most specific path that matches `path`, sorted; empty for an unknown path. A concrete path
   * is its own resource, as in OpenAPI: `/api/v1/data/batch` has POST only, although a GET there reaches the
   * collection route (and is refused as a reserved name).
   */
  allowed(path: string): string[] {
    let best: { rank: number[]; methods: Set<string> } | undefined;
    const methods = new Set<string>();
    for (const entry of this.paths.values()) {
      if (!entry.pattern.test(path)) continue;
      const order = best ? compareSpecificity(entry.rank, best.rank) : -1;
      if (order > 0) continue;
      if (order < 0) {
        best = entry;
        methods.clear();
      }
      for (const method of entry.methods) methods.add(method);
    }
    return [...methods].sort();
  }

  private readonly literalsOver = new Map<string, { at: number; names: Set<string> } | null>();

  /**
   * Whether `path`, which the router gave to the route `url`, names a more specific path at the route's first
   * parameter, such as `/api/v1/data/jobs` for `/api/v1/data/:collection`: a resource of its own, not a value of
   * the parameter. Only the first parameter counts: a later one, such as a document id, keeps every value (a
   * document may be called "import"). Worked out once per route, so the common case costs a map lookup.
   */
  shadows(url: string, path: string): boolean {
    let literals = this.literalsOver.get(url);
    if (literals === undefined) {
      const own = url.split('/');
      const at = own.findIndex((segment) => segment.startsWith(':'));
      const names = new Set<string>();
      for (const other of this.paths.keys()) {
        const segments = other.split('/');
        if (other === url || segments.length !== own.length || at < 0) continue;
        const segment = segments[at]!;
        const samePrefix = segments.slice(0, at).every((part, i) => part === own[i]);
        if (samePrefix && !segment.startsWith(':') && segment !== '*') names.add(segment);
      }
      literals = names.size > 0 ? { at, names } : null;
      this.literalsOver.set(url, literals);
    }
    return literals?.names.has(path.split('/')[literals.at]!) === true;
  }
}

/**
 * Turns every failure into the documented error body; unexpected ones are logged without leaking to the caller.
 * Register it before the routes: it learns their methods for its 405 answers.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  const methods = new MethodsByPath();
  app.addHook('onRoute', (route) => methods.add(route.url, route.method as string | string[]));
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.code === 'internal_error')
      request.log.error({ err: error, reqId: request.id }, 'request failed');
    if (apiError.headers) reply.headers(apiError.headers);
    reply.code(apiError.status).type('application/json; charset=utf-8').send(errorBody(apiError, request.id));
  });
  const answerUnrouted = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = request.url.split('?')[0]!;
    const allowed = methods.allowed(path);
    const error =
      allowed.length > 0
        ? new ApiError('method_not_allowed', `Method ${request.method} is not allowed on ${path}`, {
            allowed,
          })
        : new ApiError('not_found', `Route ${request.method} ${path} not found`);
    if (allowed.length > 0) reply.header('allow', allowed.join(', '));
    return reply
      .code(error.status)
      .type('application/json; charset=utf-8')
      .send(errorBody(error, request.id));
  };
  // Answered before the body is read: a request no route takes gets its 404 or 405 whatever it sends (a QUERY
  // without a Content-Type, a body of any size or type). So does a method a concrete path lacks, which the router
  // would hand to a templated route: `GET /api/v1/data/sql` is 405 (Allow: POST), not a list of the collection "sql".
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return answerUnrouted(request, reply);
    const url = request.routeOptions.url;
    if (url === undefined || !url.includes(':')) return;
    const path = request.url.split('?')[0]!;
    if (methods.shadows(url, path) && !methods.allowed(path).includes(request.method)) {
      return answerUnrouted(request, reply);
    }
  });
  app.setNotFoundHandler(answerUnrouted);
}
