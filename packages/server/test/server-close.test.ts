import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { availableEngines, startTestServer } from './helpers.js';

const opened = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

describe.each(availableEngines())('stopping the server on %s', (engine) => {
  // Node would keep such a connection until its header timeout (a minute or more); the budget below is far less.
  it('ends connections that never sent a request, and lets a started request finish', async () => {
    const t = await startTestServer({ engine });
    const port = Number(new URL(t.url).port);
    const silent = await opened(port);
    const silentClosed = new Promise((resolve) => silent.once('close', resolve));
    const started = await opened(port);
    let answer = '';
    started.on('data', (chunk) => {
      answer += chunk;
    });
    const answered = new Promise((resolve) => started.once('close', resolve));
    const seen = new Promise((resolve) => t.server.app.server.once('request', resolve));
    // Headers in full, the body still to come: this request has started and must be answered.
    started.write(
      `POST /api/v1/data/closing HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${t.devKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"n"',
    );
    await seen;
    const stopping = t.stop();
    await silentClosed;
    started.write(':1}');
    await answered;
    await stopping;
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
  }, 20_000);
});
