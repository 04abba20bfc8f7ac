import { describe, expect, it } from 'vitest';
import { DataPlatform, InternalServerError } from '../src/index.js';
import { sendJson, startServer } from './helpers.js';

async function* lines(count: number) {
  for (let i = 0; i < count; i++) yield new TextEncoder().encode(`{"i":${i}}\n`);
}

describe('a streamed body over undici', () => {
  it('arrives whole, as sent, and is never sent twice', async () => {
    const local = await startServer((_req, res) =>
      sendJson(res, 503, { error: 'down', code: 'internal_error', requestId: 'r' }),
    );
    try {
      const direct = new DataPlatform({ apiKey: 'svc_x', baseUrl: local.url, maxRetries: 3 });
      await expect(direct.data.import('orders', lines(1000), { format: 'ndjson' })).rejects.toBeInstanceOf(
        InternalServerError,
      );
      expect(local.seen).toHaveLength(1);
      expect(local.seen[0]!.body.split('\n')).toHaveLength(1001);
      expect(local.seen[0]!.headers['content-type']).toBe('application/x-ndjson');
      expect(local.seen[0]!.url).toBe('/api/v1/data/orders/import?format=ndjson');
    } finally {
      await local.close();
    }
  });
});
