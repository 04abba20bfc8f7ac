import { describe, expect, it } from 'vitest';
import { parseArgs, testIO } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { createFactory } from '../../factory.js';
import { newWatchCommand, runWatch, type WatchOptions } from './watch.js';

describe('dp data watch: arguments', () => {
  it('parses the collection, the filter, its parameters and the start', async () => {
    expect(
      await parseArgs(newWatchCommand, [
        'orders',
        '--where',
        'status = ? AND total > ?',
        '--params',
        '["paid", 100]',
        '--since',
        'evt_1',
      ]),
    ).toMatchObject({
      ok: true,
      options: {
        collection: 'orders',
        where: 'status = ? AND total > ?',
        params: ['paid', 100],
        since: 'evt_1',
      },
    });
  });

  it.each([[['orders', '--params', '{"a":1}']], [['orders', '--params', 'nope']], [[]]])(
    'refuses %j with exit status 2',
    async (argv) => {
      expect(await parseArgs(newWatchCommand, argv)).toMatchObject({ ok: false, code: 2 });
    },
  );
});

describe('dp data watch: run', () => {
  const api = useMockApi();

  function watch(options: WatchOptions, tty = false) {
    const { io, stdout, stderr } = testIO({
      env: { ...api.env, NO_COLOR: '1' },
      tty: { stdout: tty, stderr: tty },
    });
    const stop = new AbortController();
    const done = runWatch(createFactory(io), options, stop.signal);
    return { done, stop: () => stop.abort(), stdout, stderr };
  }

  async function until(check: () => boolean) {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const write = (method: string, path: string, body?: unknown) =>
    fetch(`${api.env.DATAPLATFORM_BASE_URL}${path}`, {
      method,
      headers: { 'x-api-key': api.env.DATAPLATFORM_API_KEY!, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("prints the collection's changes as JSON lines in a pipe, each once, until stopped", async () => {
    const session = watch({ collection: 'orders' });
    await until(() => session.stderr().includes('Ready!'));
    await write('POST', '/api/v1/data/orders', { _id: 'o1', total: 5 });
    await write('POST', '/api/v1/data/other', { _id: 'x' });
    await write('PATCH', '/api/v1/data/orders/o1', { total: 7 });
    await until(() => session.stdout().trim().split('\n').length >= 2);
    session.stop();
    await session.done;
    const lines = session
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.type, l.documentId, l.data.total])).toEqual([
      ['document.created', 'o1', 5],
      ['document.updated', 'o1', 7],
    ]);
  });

  it('prints a line per change on a terminal', async () => {
    const session = watch({ collection: 'orders' }, true);
    await until(() => session.stderr().includes('Ready!'));
    await write('POST', '/api/v1/data/orders', { _id: 'o2', total: 9 });
    await until(() => session.stdout().includes('o2'));
    session.stop();
    await session.done;
    expect(session.stdout()).toMatch(/\d\d:\d\d:\d\d {2}created {2}o2 {2}\{"total":9\}/);
  });

  it('fails with the reason for an id that is not kept', async () => {
    const session = watch({ collection: 'orders', since: 'evt_unknown' });
    await expect(session.done).rejects.toThrow(/could not watch the changes of "orders"/);
  });
});
