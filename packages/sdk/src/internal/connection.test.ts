import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIConnectionTimeoutError } from '../core/error.js';
import { connectionError } from './connection.js';
import { TransportTimeout } from './transport.js';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' });

describe('connectionError', () => {
  it('keeps the request id and the cause', () => {
    const error = connectionError(refused, { baseUrl: 'http://localhost:3000', isDefault: false }, 'req_1');
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.requestId).toBe('req_1');
    expect(error.cause).toBe(refused);
    expect(error.message).toBe('Connection refused by http://localhost:3000: is the server running there?');
  });

  it('explains a refusal by the default address, found also inside an AggregateError', () => {
    const aggregate = new AggregateError([refused], 'connect failed');
    const error = connectionError(aggregate, { baseUrl: 'http://localhost:3000', isDefault: true }, 'req_1');
    expect(error.message).toContain('the default base address');
    expect(error.message).toContain('DATAPLATFORM_BASE_URL');
  });

  it('makes a timeout an APIConnectionTimeoutError, and anything else a connection error naming the address', () => {
    const target = { baseUrl: 'http://api.test', isDefault: false };
    const timeout = connectionError(new TransportTimeout('Request timed out after 10 ms'), target, 'req_2');
    expect(timeout).toBeInstanceOf(APIConnectionTimeoutError);
    expect(timeout.requestId).toBe('req_2');
    expect(connectionError(new Error('socket hang up'), target, 'req_3').message).toBe(
      'Connection error (http://api.test): socket hang up',
    );
  });
});
