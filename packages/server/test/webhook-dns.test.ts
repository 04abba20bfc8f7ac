import { afterAll, expect, it } from 'vitest';
import { forEachEngine } from './helpers.js';
import { startDnsServer } from './webhooks/dns-server.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';

const SLOW = 20;

// The servers' resolver asks only this server: names resolve to the loopback receiver (allowed in development
// mode), with a TTL of 0 so that every delivery asks again, and a lookup waits as long as the test holds it.
const dns = await startDnsServer();
const receiver: Receiver = await startReceiver();
const port = new URL(receiver.url).port;
afterAll(async () => {
  dns.release();
  await receiver.close();
  await dns.close();
});

forEachEngine(
  (t, engine) => {
    it('creates a subscription while deliveries wait on slow DNS lookups of other names', async () => {
      const names = Array.from({ length: SLOW }, (_, i) => `hook-${i}.${engine}.test`);
      for (const name of names) dns.set(name, { a: ['127.0.0.1'], ttl: 0 });
      for (const name of names) {
        const res = await t().call('POST', '/api/v1/data/webhooks', {
          body: { url: `http://${name}:${port}/${name}`, events: ['*'], collection: `slow${engine}` },
        });
        expect(res.status).toBe(201);
      }
      // From now on the receivers' names are slow: each delivery's lookup waits until the test releases it.
      for (const name of names) dns.set(name, { a: ['127.0.0.1'], ttl: 0, hold: true });
      const before = receiver.received.length;
      expect((await t().call('POST', `/api/v1/data/slow${engine}`, { body: { n: 1 } })).status).toBe(201);
      await dns.waitForHeld(SLOW);

      dns.set(`fresh.${engine}.test`, { a: ['127.0.0.1'], ttl: 0 });
      const created = await t().call('POST', '/api/v1/data/webhooks', {
        body: { url: `http://fresh.${engine}.test:${port}/fresh`, events: ['*'], collection: 'other' },
      });
      expect(created.status).toBe(201);
      // The create's own lookup was answered while all 20 delivery lookups were still waiting.
      expect(dns.held().size).toBe(SLOW);
      expect(receiver.received.length).toBe(before);

      dns.release();
      const arrived = await receiver.waitFor(before + SLOW, 30_000);
      expect(new Set(arrived.slice(before).map((request) => request.path.slice(1)))).toEqual(new Set(names));
    }, 60_000);

    it('refuses a name that resolves to a refused address at creation, through the same resolver', async () => {
      dns.set(`meta.${engine}.test`, { aaaa: ['::a9fe:a9fe'] });
      const res = await t().call('POST', '/api/v1/data/webhooks', {
        body: { url: `http://meta.${engine}.test/latest`, events: ['*'] },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(
        /meta\.\w+\.test resolves to ::169\.254\.169\.254 is a reserved/,
      );
    });
  },
  { config: { webhookDnsServers: [dns.address], webhookDnsTimeout: 60_000 } },
);
