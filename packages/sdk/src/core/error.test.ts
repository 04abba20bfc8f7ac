import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  DataPlatformError,
  HeadersTooLargeError,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PaymentRequiredError,
  PermissionDeniedError,
  PreconditionFailedError,
  PreconditionRequiredError,
  RateLimitError,
  RequestTimeoutError,
  UnsupportedMediaTypeError,
  URITooLongError,
} from './error.js';

const body = (code: string) => ({ error: 'Something failed', code, requestId: 'req_body' });

describe('APIError.generate', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [402, PaymentRequiredError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [405, MethodNotAllowedError],
    [408, RequestTimeoutError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
    [414, URITooLongError],
    [415, UnsupportedMediaTypeError],
    [412, PreconditionFailedError],
    [428, PreconditionRequiredError],
    [429, RateLimitError],
    [431, HeadersTooLargeError],
    [500, InternalServerError],
    [503, InternalServerError],
  ])('gives %i a %o', (status, Class) => {
    const error = APIError.generate(status, body('x'), undefined, new Headers());
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(DataPlatformError);
    expect(error.status).toBe(status);
  });

  it('keeps APIError for statuses without a subclass', () => {
    const error = APIError.generate(418, body('teapot'), undefined, new Headers());
    expect(error.constructor).toBe(APIError);
  });

  it('reads code, details and requestId from the body', () => {
    const error = APIError.generate(
      403,
      { ...body('insufficient_scope'), details: { required: ['data:write'] } },
      undefined,
      new Headers({ 'x-request-id': 'req_header' }),
    );
    expect(error.code).toBe('insufficient_scope');
    expect(error.details).toEqual({ required: ['data:write'] });
    expect(error.requestId).toBe('req_body');
    expect(error.message).toBe('403 insufficient_scope: Something failed');
  });

  it('takes requestId from X-Request-Id when the body has none', () => {
    const error = APIError.generate(
      502,
      '<html>Bad gateway</html>',
      undefined,
      new Headers({ 'x-request-id': 'req_header' }),
    );
    expect(error.requestId).toBe('req_header');
    expect(error.code).toBeUndefined();
    expect(error.message).toBe('502: <html>Bad gateway</html>');
  });

  it('takes requestId from the request when the answer names none', () => {
    const error = APIError.generate(502, 'Bad gateway', undefined, new Headers(), 'req_sent');
    expect(error.requestId).toBe('req_sent');
  });
});

describe('connection errors', () => {
  it('have no status and are APIErrors', () => {
    const timeout = new APIConnectionTimeoutError();
    expect(timeout).toBeInstanceOf(APIConnectionError);
    expect(timeout).toBeInstanceOf(APIError);
    expect(timeout.status).toBeUndefined();
    expect(new APIUserAbortError().message).toBe('Request was aborted');
  });

  it('carry the id the request was sent with', () => {
    expect(new APIConnectionError({ requestId: 'req_sent' }).requestId).toBe('req_sent');
    expect(new APIConnectionTimeoutError({ requestId: 'req_sent' }).requestId).toBe('req_sent');
    expect(new APIUserAbortError({ requestId: 'req_sent' }).requestId).toBe('req_sent');
  });
});
