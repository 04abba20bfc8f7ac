import type { FastifyError, FastifyInstance } from 'fastify';
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

/**
 * The methods each path has, learned as routes are registered, so that a known path asked with another method is
 * answered 405 with `Allow` rather than 404.
 */
class MethodsByPath {
  private readonly paths = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  add(url: string, methods: string | string[]): void {
    let entry = this.paths.get(url);
    if (!entry) {
      entry = { pattern: pathPattern(url), methods: new Set() };
      this.paths.set(url, entry);
    }
    for (const method of Array.isArray(methods) ? methods : [methods]) entry.methods.add(method);
  }

  /** Every method of the paths that match `path`, sorted; empty for an unknown path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const { pattern, methods: own } of this.paths.values()) {
      if (pattern.test(path)) for (const method of own) methods.add(method);
    }
    return [...methods].sort();
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
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = methods.allowed(path);
    const error =
      allowed.length > 0
        ? new ApiError('method_not_allowed', `Method ${request.method} is not allowed on ${path}`, {
            allowed,
          })
        : new ApiError('not_found', `Route ${request.method} ${path} not found`);
    if (allowed.length > 0) reply.header('allow', allowed.join(', '));
    reply.code(error.status).type('application/json; charset=utf-8').send(errorBody(error, request.id));
  });
}
