import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@dataplatform/server';
import { sign } from '@dataplatform/webhooks/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'dp-examples-'));
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'warn' });
  if (!server.devAccount) throw new Error('the reference server made no development account');
  // What a person running an example sets; the SDK reads both.
  process.env.DATAPLATFORM_BASE_URL = server.url.replace('localhost', '127.0.0.1');
  process.env.DATAPLATFORM_API_KEY = server.devAccount.apiKey;
  process.env.DATAPLATFORM_EMAIL = server.devAccount.email;
  process.env.DATAPLATFORM_PASSWORD = server.devAccount.password;
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs an example file as its script would, and gives back what it printed. */
async function run(file: string): Promise<string> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.join(' '));
  });
  try {
    await import(`../src/${file}`);
  } finally {
    log.mockRestore();
  }
  return lines.join('\n');
}

describe('the examples against the reference server', () => {
  it('batch.ts writes in one request, and a transaction keeps nothing when one operation fails', async () => {
    const out = await run('batch.ts');
    expect(out).toContain('statuses: 201 201 200');
    expect(out).toContain(
      'transaction aborted: transaction_aborted {"index":1,"status":409,"code":"conflict"}',
    );
    expect(out).toContain('cart-3 was not kept');
  });

  it('sql.ts reads with a statement and with the query builder', async () => {
    const out = await run('sql.ts');
    expect(out).toContain('over 10: desk, lamp');
    expect(out).toContain('40 or less: pen 2, lamp 40');
  });

  it('import.ts stores the good rows and names the bad line', async () => {
    const out = await run('import.ts');
    expect(out).toContain('succeeded: 3 of 4 rows stored');
    expect(out).toMatch(/line 3: \w+/);
  });

  it('functions.ts deploys a function, runs it by a document trigger and by name', async () => {
    const out = await run('functions.ts');
    expect(out).toContain('deployed order-total version 1');
    expect(out).toContain('total set by the trigger: 42');
    expect(out).toContain('trigger runs: ok');
    expect(out).toMatch(/invoked by name: 120 \| order \S+ comes to 120/);
  });

  it('pagination.ts walks every page', async () => {
    const out = await run('pagination.ts');
    expect(out).toContain('sum of every reading: 300');
    expect(out).toContain('pages of 10, 10, 5 out of 25');
  });

  it('errors.ts shows a class, status, code and request id for each failure', async () => {
    const out = await run('errors.ts');
    expect(out).toMatch(/a missing document: NotFoundError 404 not_found \(request req_\w+\)/);
    expect(out).toMatch(/a field the server sets: BadRequestError 400 \w+ \(request req_\w+\)/);
    expect(out).toMatch(/a statement that is not a SELECT: BadRequestError 400 invalid_sql/);
    expect(out).toMatch(/an address with no server: APIConnectionError - - \(request req_\w+\)/);
  });

  it('webhook-receiver.ts answers 204 to a signed delivery and 400 to anything else', async () => {
    process.env.PORT = '0';
    const { server: receiver } = (await import('../src/webhook-receiver.js')) as { server: Server };
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      if (!receiver.listening) await new Promise((resolve) => receiver.once('listening', resolve));
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const body = JSON.stringify({ type: 'document.created', collection: 'orders', documentId: 'o-1' });
      const headers = sign(body, 'whsec_example-secret-of-this-receiver');
      const signed = await fetch(url, { method: 'POST', body, headers: { ...headers } });
      expect(signed.status).toBe(204);
      const forged = await fetch(url, { method: 'POST', body, headers: { ...sign(body, 'whsec_other') } });
      expect(forged.status).toBe(400);
      expect(log).toHaveBeenCalledWith('document.created orders/o-1');
    } finally {
      log.mockRestore();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
