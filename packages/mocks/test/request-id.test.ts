import { describe, expect, it } from 'vitest';
import { useMockApi } from './harness.js';

const { call } = useMockApi();

describe('X-Request-Id', () => {
  it('echoes the caller’s request id on success and on error', async () => {
    const ok = await call('GET', '/api/v1/data/orders', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(ok.headers.get('x-request-id')).toBe('trace-123');
    const denied = await call('GET', '/api/v1/data/orders', {
      key: null,
      headers: { 'X-Request-Id': 'trace-456' },
    });
    expect(denied.headers.get('x-request-id')).toBe('trace-456');
    expect(denied.body.requestId).toBe('trace-456');
  });

  it('generates a distinct req_ id when the caller sends none', async () => {
    const a = await call('GET', '/api/v1/data/orders');
    const b = await call('GET', '/api/v1/data/orders');
    expect(a.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{24}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('puts the same id in every error body, which has exactly error, code, details and requestId', async () => {
    const result = await call('GET', '/api/v1/data/orders?limit=0');
    expect(Object.keys(result.body)).toEqual(['error', 'code', 'details', 'requestId']);
    expect(result.body.requestId).toBe(result.headers.get('x-request-id'));
    const notFound = await call('GET', '/api/v1/data/orders/none');
    expect(Object.keys(notFound.body).sort()).toEqual(['code', 'details', 'error', 'requestId']);
    const unauthorized = await call('GET', '/api/v1/data/orders', { key: null });
    expect(Object.keys(unauthorized.body)).toEqual(['error', 'code', 'requestId']);
  });

  it('answers JSON', async () => {
    const result = await call('GET', '/api/v1/data/orders');
    expect(result.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
