import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { availableEngines, createTestDatabase } from './helpers.js';
import { startProcess, stop } from './server-process.js';
import { freePort } from './setup/services.js';
import { openStream, started } from './webhooks/event-stream.js';

describe.each(availableEngines())('a change stream across a crash on %s', (engine) => {
  it('resumes after SIGKILL with every acknowledged write, without a gap or a duplicate', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-changes-crash-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    const env = {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATAPLATFORM_DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
    };
    let server = await startProcess(env);
    try {
      const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'dev-credentials.json'), 'utf8'));
      const changes = () => `${server.url}/api/v1/data/crashed/changes`;
      const stream = await openStream(changes(), { 'x-api-key': apiKey });
      await started(stream);

      // Writes go on while the process is killed; the ones answered 201 are acknowledged.
      const acknowledged: string[] = [];
      let killed = false;
      const writer = (async () => {
        for (let n = 0; !killed; n++) {
          const res = await fetch(`${server.url}/api/v1/data/crashed`, {
            method: 'POST',
            headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
            body: JSON.stringify({ _id: `d${String(n).padStart(5, '0')}` }),
          }).catch(() => null);
          if (res?.status === 201) acknowledged.push(`d${String(n).padStart(5, '0')}`);
        }
      })();
      while (stream.events.length < 50) await new Promise((resolve) => setTimeout(resolve, 5));
      killed = true;
      await stop(server.child, 'SIGKILL');
      await writer;
      await stream.ended;
      const before = stream.events.map((event) => JSON.parse(event.data!).documentId as string);
      const lastId = stream.events.at(-1)!.id!;

      server = await startProcess(env);
      const resumed = await openStream(changes(), { 'x-api-key': apiKey, 'last-event-id': lastId });
      expect(resumed.status).toBe(200);
      // Every write acknowledged before the crash is in the stream, once; a write that died in flight may or may
      // not be (it is then stored and sent, or neither).
      const stored = (await (
        await fetch(`${server.url}/api/v1/data/crashed?limit=1000`, { headers: { 'x-api-key': apiKey } })
      ).json()) as { total: number };
      const after = await resumed.waitFor(stored.total - before.length);
      resumed.close();
      const all = [...before, ...after.map((event) => JSON.parse(event.data!).documentId as string)];
      expect(new Set(all).size).toBe(all.length);
      expect(all).toHaveLength(stored.total);
      for (const id of acknowledged) expect(all).toContain(id);
      // One writer, one document after another: the stream keeps their order.
      expect(all).toEqual([...all].sort());
    } finally {
      await stop(server.child, 'SIGTERM');
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
