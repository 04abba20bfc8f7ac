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

/** Turns every failure into the documented error body; unexpected ones are logged without leaking to the caller. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.code === 'internal_error')
      request.log.error({ err: error, reqId: request.id }, 'request failed');
    if (apiError.headers) reply.headers(apiError.headers);
    reply.code(apiError.status).type('application/json; charset=utf-8').send(errorBody(apiError, request.id));
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError('not_found', `Route ${request.method} ${request.url.split('?')[0]} not found`);
    reply.code(404).type('application/json; charset=utf-8').send(errorBody(error, request.id));
  });
}
