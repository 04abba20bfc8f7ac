import { expect, it, vi } from 'vitest';
import { useMockApi } from './harness.js';

const { call } = useMockApi({ baseUrl: 'https://api.example.test/' });

it('answers on the configured base address', async () => {
  const result = await call('POST', '/api/v1/data/orders', { json: { n: 1 } });
  expect(result.status).toBe(201);
  expect(result.headers.get('location')).toBe(`/api/v1/data/orders/${result.body._id}`);
});

it('leaves the default address unhandled', async () => {
  // MSW logs the unhandled request before failing it; keep the test output clean and check it did.
  const log = vi.spyOn(console, 'error').mockImplementation(() => {});
  await expect(fetch('http://localhost:5000/api/v1/data/orders')).rejects.toThrow();
  expect(String(log.mock.calls[0]?.[0])).toContain('without a matching request handler');
  log.mockRestore();
});
