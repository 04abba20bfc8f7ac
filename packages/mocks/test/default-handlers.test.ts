import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { handlers, MOCK_API_KEY } from '../src/index.js';

const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

it('serves the default instance on http://localhost:5000 with MOCK_API_KEY', async () => {
  const headers = { Authorization: `Bearer ${MOCK_API_KEY}`, 'Content-Type': 'application/json' };
  const created = await fetch('http://localhost:5000/api/v1/data/notes', {
    method: 'POST',
    headers,
    body: JSON.stringify({ text: 'hi' }),
  });
  expect(created.status).toBe(201);
  const page = await (await fetch('http://localhost:5000/api/v1/data/notes', { headers })).json();
  expect(page).toMatchObject({ total: 1, data: [{ text: 'hi' }] });
});
