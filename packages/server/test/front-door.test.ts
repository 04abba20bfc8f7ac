import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { openFrontDoor } from '../src/http/front-door.js';
import { startServer } from '../src/server.js';
import { availableEngines, createTestDatabase } from './helpers.js';

const portOf = (door: { server: { address(): unknown } }) => (door.server.address() as { port: number }).port;

/** A settled-or-not view of a promise, to show that a request is still waiting without timing it. */
function track<T>(promise: Promise<T>): { settled: () => boolean; promise: Promise<T> } {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  return { settled: () => settled, promise };
}

/** An upgrade request's outcome: the status line the server answered with. */
function upgradeStatus(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      port,
      host: '127.0.0.1',
      path,
      headers: { connection: 'upgrade', upgrade: 'websocket' },
    });
    req.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    req.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the front door', () => {
  it('answers /healthz before the app is ready, and hands every other request to the app once it is', async () => {
    const door = await openFrontDoor(0, '127.0.0.1');
    const url = `http://127.0.0.1:${portOf(door)}`;
    try {
      const early = track(fetch(`${url}/documents?x=1`, { method: 'POST', body: 'sent early' }));
      const upgrade = track(upgradeStatus(portOf(door), '/socket'));
      const alive = await fetch(`${url}/healthz?probe=1`);
      expect(alive.status).toBe(200);
      expect(alive.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(alive.headers.get('x-request-id')).toMatch(/^req_/);
      expect(await alive.json()).toEqual({ status: 'ok' });
      const head = await fetch(`${url}/healthz`, { method: 'HEAD' });
      expect([head.status, await head.text()]).toEqual([200, '']);
      // Answered /healthz came after the other two were sent; they still wait for the app.
      expect([early.settled(), upgrade.settled()]).toEqual([false, false]);

      const seen: string[] = [];
      const app = (request: IncomingMessage, response: ServerResponse) => {
        seen.push(`${request.method} ${request.url}`);
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          response.end(`app: ${request.method} ${request.url} ${body}`);
        });
      };
      const server = door.serverFactory(app);
      // The app's own upgrade listener is added while it is built, before it is ready: it must see nothing yet.
      server.on('upgrade', (request: IncomingMessage, socket) => {
        seen.push(`upgrade ${request.url}`);
        socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
      });
      const meanwhile = await fetch(`${url}/healthz`);
      expect(await meanwhile.json()).toEqual({ status: 'ok' });
      expect(seen).toEqual([]);

      door.open();
      const answer = await early.promise;
      expect(await answer.text()).toBe('app: POST /documents?x=1 sent early');
      expect(await upgrade.promise).toBe(101);
      const later = await fetch(`${url}/healthz`);
      expect(await later.text()).toBe('app: GET /healthz ');
      // In arrival order: the waiting request, then the waiting upgrade, then the later request.
      expect(seen).toEqual(['POST /documents?x=1', 'upgrade /socket', 'GET /healthz']);
    } finally {
      await door.close();
    }
  });
});

describe.each(availableEngines())('a server started on an open front door on %s', (engine) => {
  it('gives requests that came before it was ready the answers of the full app', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-front-door-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    const door = await openFrontDoor(0, '127.0.0.1');
    const url = `http://127.0.0.1:${portOf(door)}`;
    const ready = track(fetch(`${url}/readyz`));
    const route = track(fetch(`${url}/api/v1/data/orders`));
    const socket = new WebSocket(`${url.replace('http', 'ws')}/api/v1/realtime`);
    const refused = new Promise<number>((resolve) => {
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => resolve(101));
    });
    const alive = await fetch(`${url}/healthz`);
    expect(await alive.json()).toEqual({ status: 'ok' });
    expect([ready.settled(), route.settled()]).toEqual([false, false]);

    const server = await startServer(
      { port: 0, host: '127.0.0.1', dataDir, databaseUrl: database?.url, logLevel: 'warn' },
      { frontDoor: door },
    );
    try {
      expect(server.url).toBe(`http://localhost:${portOf(door)}`);
      const readyAnswer = await ready.promise;
      expect(readyAnswer.status).toBe(200);
      expect(await readyAnswer.json()).toEqual({ status: 'ready', engine });
      // The data route and the realtime upgrade reach their routes: no key, so the app's own refusal.
      const routeAnswer = await route.promise;
      expect(routeAnswer.status).toBe(401);
      expect((await routeAnswer.json()).code).toBe('unauthorized');
      expect(await refused).toBe(401);
    } finally {
      await server.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
