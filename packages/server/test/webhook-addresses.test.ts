import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, startServer } from '../src/index.js';
import { availableEngines, createTestDatabase, startTestServer, type TestServer } from './helpers.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';

const STRICT = { webhookAllowLoopback: false, webhookAllowPrivate: false };

describe('receiver address settings', () => {
  it('accept loopback receivers in development mode only, unless configured', () => {
    expect(loadConfig({}).webhookAllowLoopback).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).webhookAllowLoopback).toBe(false);
    expect(
      loadConfig({ NODE_ENV: 'production', DATAPLATFORM_WEBHOOK_ALLOW_LOOPBACK: 'true' })
        .webhookAllowLoopback,
    ).toBe(true);
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ DATAPLATFORM_WEBHOOK_ALLOW_PRIVATE: '1' }).webhookAllowPrivate).toBe(true);
    expect(() => loadConfig({ DATAPLATFORM_WEBHOOK_ALLOW_PRIVATE: 'maybe' })).toThrow(/true or false/);
  });

  it('name the DNS servers of receivers by address, those of resolv.conf by default', () => {
    expect(loadConfig({}).webhookDnsServers).toEqual([]);
    expect(loadConfig({}).webhookDnsTimeout).toBe(5000);
    const servers = '192.0.2.53, [2001:db8::53]:53,127.0.0.1:5353';
    expect(loadConfig({ DATAPLATFORM_WEBHOOK_DNS_SERVERS: servers }).webhookDnsServers).toEqual([
      '192.0.2.53',
      '[2001:db8::53]:53',
      '127.0.0.1:5353',
    ]);
    expect(() => loadConfig({ DATAPLATFORM_WEBHOOK_DNS_SERVERS: 'dns.example.com' })).toThrow(
      /DATAPLATFORM_WEBHOOK_DNS_SERVERS must list IP addresses/,
    );
  });
});

describe.each(availableEngines())('receiver addresses on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ engine, config: STRICT });
  }, 60_000);
  afterAll(() => t?.stop());

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost:8080/hook',
    'http://[::1]:8080/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://0.0.0.0/hook',
    'http://10.20.30.40/hook',
    'http://172.16.5.4/hook',
    'http://192.168.1.10/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[fe80::1]/hook',
    'http://[fd00::1]/hook',
    'http://224.0.0.1/hook',
    // IPv4-compatible IPv6 (::/96), 6to4 and NAT64 carrying internal IPv4 addresses.
    'http://[::169.254.169.254]/latest/meta-data',
    'http://[::127.0.0.1]:8080/hook',
    'http://[::a00:1]/hook',
    'http://[2002:a9fe:a9fe::1]/hook',
    'http://[64:ff9b::a9fe:a9fe]/hook',
  ])('refuses %s with 400 validation_error', async (url) => {
    const res = await t.call('POST', '/api/v1/data/webhooks', { body: { url, events: ['*'] } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'validation_error', details: { field: 'url' } });
    expect(body.error).toMatch(/receiver address refused/);
  });
});

/** Starts a server on an existing data directory and database (a restart), with the given receiver rules. */
function restart(dataDir: string, databaseUrl: string | undefined, rules: typeof STRICT) {
  return startServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl, logLevel: 'warn', ...rules });
}

describe.each(availableEngines())('receiver addresses at delivery time on %s', (engine) => {
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let receiver: Receiver;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-addresses-'));
    database = engine === 'postgres' ? await createTestDatabase() : undefined;
    receiver = await startReceiver();
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    await receiver?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('checks the address again at each delivery, so a receiver allowed once is refused after a change', async () => {
    // Made while loopback was allowed (the development default) ...
    const before = await restart(dataDir, database?.url, {
      webhookAllowLoopback: true,
      webhookAllowPrivate: false,
    });
    servers.push(before);
    const apiKey = before.devAccount!.apiKey;
    const call = (server: RunningServer, method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const port = new URL(receiver.url).port;
    const ids: string[] = [];
    for (const url of [`http://127.0.0.1:${port}/literal`, `http://localhost:${port}/named`]) {
      const res = await call(before, 'POST', '/api/v1/data/webhooks', { url, events: ['*'] });
      expect(res.status).toBe(201);
      ids.push((await res.json())._id);
    }
    await before.close();
    servers.pop();

    // ... and delivered by a server that no longer allows it: the attempt fails, nothing reaches the receiver.
    const after = await restart(dataDir, database?.url, { ...STRICT });
    servers.push(after);
    expect((await call(after, 'POST', '/api/v1/data/orders', { n: 1 })).status).toBe(201);
    for (const id of ids) {
      const deadline = Date.now() + 10_000;
      let attempts: { error: string | null; responseStatus: number | null }[] = [];
      while (attempts.length === 0 && Date.now() < deadline) {
        const list = await (await call(after, 'GET', `/api/v1/data/webhooks/${id}/deliveries`)).json();
        const delivery = list.data[0];
        if (delivery?.attempts > 0) {
          const res = await call(
            after,
            'GET',
            `/api/v1/data/webhooks/${id}/deliveries/${delivery._id}/attempts`,
          );
          attempts = (await res.json()).data;
        } else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(attempts[0]).toMatchObject({ responseStatus: null });
      expect(attempts[0]!.error).toMatch(/receiver address refused: .*loopback/);
    }
    expect(receiver.received).toHaveLength(0);
  }, 30_000);
});
