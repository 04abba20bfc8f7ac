import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from './errors.js';
import { newRequestId } from './request-id.js';

/**
 * The longest path segment the router accepts: a document id of 128 characters, each up to 4 bytes of UTF-8 written
 * as 3 characters of percent-encoding, fits with room to spare. Longer segments are 414 `uri_too_long`.
 */
export const MAX_PATH_SEGMENT = 2048;

/**
 * Answers the router's own refusals, which come before any route or hook runs, in the API's error shape: a path
 * that does not decode (`%ff`) is 400 `validation_error`, an over-long segment 414 `uri_too_long`.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const apiError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError('uri_too_long', `A path segment is longer than ${MAX_PATH_SEGMENT} characters`)
      : new ApiError('validation_error', 'The URL is malformed: its path does not decode as UTF-8', {
          in: 'path',
        });
  reply
    .code(apiError.status)
    .header('x-request-id', request.id)
    .type('application/json; charset=utf-8')
    .send(errorBody(apiError, request.id));
}

/**
 * Answers what Node's HTTP parser refuses before there is a request (headers over the 16 KiB limit, a malformed
 * request line) in the API's error shape, with a request id of its own, then closes the connection.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const apiError =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError('headers_too_large')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ApiError('request_timeout')
          : new ApiError('validation_error', 'Malformed HTTP request');
    const requestId = newRequestId();
    const body = errorBody(apiError, requestId);
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n` +
        'Connection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
