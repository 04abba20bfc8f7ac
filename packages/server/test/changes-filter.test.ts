import { describe, expect, it } from 'vitest';
import { forEachEngine } from './helpers.js';
import { openStream, started } from './webhooks/event-stream.js';

const documentIds = (sent: { data?: string }[]) => sent.map((event) => JSON.parse(event.data!).documentId);

forEachEngine((t) => {
  const changesOf = (collection: string, query: Record<string, string> = {}) =>
    `${t().url}/api/v1/data/${collection}/changes?${new URLSearchParams(query)}`;

  describe('a change stream with a where condition', () => {
    it('sends only the events whose document matches (after the change; before it, for deletes)', async () => {
      const stream = await openStream(
        changesOf('orders', { where: 'status = ? AND total >= ?', params: '["paid", 10]' }),
        { 'x-api-key': t().devKey },
      );
      expect(stream.status).toBe(200);
      await started(stream);
      await t().call('POST', '/api/v1/data/orders', { body: { _id: 'small', status: 'paid', total: 5 } });
      await t().call('POST', '/api/v1/data/orders', { body: { _id: 'open', status: 'open', total: 50 } });
      await t().call('POST', '/api/v1/data/orders', { body: { _id: 'big', status: 'paid', total: 50 } });
      // Now matching: the update is sent. Then no longer matching: the next update is not.
      await t().call('PATCH', '/api/v1/data/orders/open', { body: { status: 'paid' } });
      await t().call('PATCH', '/api/v1/data/orders/open', { body: { status: 'refunded' } });
      // A deleted document is matched as it was.
      await t().call('DELETE', '/api/v1/data/orders/big');
      await t().call('DELETE', '/api/v1/data/orders/small');
      await t().call('POST', '/api/v1/data/orders', { body: { _id: 'last', status: 'paid', total: 10 } });
      const sent = await stream.waitFor(4);
      expect(documentIds(sent)).toEqual(['big', 'open', 'big', 'last']);
      expect(sent.map((event) => event.event)).toEqual([
        'document.created',
        'document.updated',
        'document.deleted',
        'document.created',
      ]);
      stream.close();
    });

    it('resumes a filtered stream by id without a gap or a duplicate', async () => {
      const where = { where: 'n > 1' };
      const first = await openStream(changesOf('filtered', where), { 'x-api-key': t().devKey });
      await started(first);
      for (const n of [2, 1, 3])
        await t().call('POST', '/api/v1/data/filtered', { body: { _id: `d${n}`, n } });
      const sent = await first.waitFor(2);
      first.close();
      for (const n of [0, 4]) await t().call('POST', '/api/v1/data/filtered', { body: { _id: `d${n}`, n } });
      const resumed = await openStream(changesOf('filtered', { ...where, since: sent[0]!.id! }), {
        'x-api-key': t().devKey,
      });
      expect(documentIds(await resumed.waitFor(2))).toEqual(['d3', 'd4']);
      resumed.close();
    });

    it.each([
      ['a where outside the grammar', { where: 'total >' }],
      ['another clause after the condition', { where: 'total > 1 ORDER BY total' }],
      ['a second statement', { where: '1 = 1; DELETE FROM orders' }],
      ['a placeholder without a value', { where: 'total > ?' }],
      ['a value no placeholder takes', { where: 'total > 1', params: '[1]' }],
      ['params that are not JSON', { where: 'total > ?', params: '[1' }],
      ['params that are not an array', { where: 'total > ?', params: '{"a":1}' }],
      ['params without a where', { params: '[1]' }],
    ])('answers 400 invalid_sql before the stream opens: %s', async (_, query) => {
      const res = await t().call('GET', `/api/v1/data/orders/changes?${new URLSearchParams(query)}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()).code).toBe('invalid_sql');
    });
  });
});
