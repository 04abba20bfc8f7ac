import { FUNCTION_LIMITS } from '@dataplatform/contract';
import { expect, it } from 'vitest';
import { asUser, userOn } from './cluster-helpers.js';
import { forEachEngine } from './helpers.js';

interface Entry {
  action: string;
  ip: string;
  details: Record<string, unknown>;
}

forEachEngine((server) => {
  it('tells the owner once per streak of failed runs, in notifications and the activity log', async () => {
    const t = server();
    const owner = await userOn(t, 'team');
    const created = await asUser(t, owner, 'POST', '/api/functions', {
      name: 'flaky',
      code: "export default (input) => { if (input.fail) throw new Error('broken ' + input.n); return 1; };",
    });
    expect(created.status).toBe(201);
    const fn = (await created.json()) as { _id: string };
    const run = async (fail: boolean, n: number) => {
      const res = await asUser(t, owner, 'POST', `/api/functions/${fn._id}/invoke`, { fail, n });
      expect(res.status).toBe(fail ? 422 : 200);
    };
    const notices = async () => {
      const res = await asUser(t, owner, 'GET', '/api/logs/activity?limit=100');
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: Entry[] }).data.filter((e) => e.action === 'function_failing');
    };
    const streak = FUNCTION_LIMITS.failingStreak;
    let n = 0;
    for (let i = 1; i < streak; i++) await run(true, ++n);
    expect(await notices()).toEqual([]);
    await run(true, ++n);
    expect(await notices()).toEqual([
      {
        action: 'function_failing',
        ip: '',
        details: {
          functionId: fn._id,
          name: 'flaky',
          clusterId: expect.any(String),
          failures: streak,
          lastError: `broken ${n}`,
        },
        _id: expect.any(String),
        createdAt: expect.any(String),
        userAgent: null,
      },
    ]);
    // The streak goes on without another notice; a success ends it, and the next streak is told again.
    for (let i = 0; i < streak; i++) await run(true, ++n);
    expect(await notices()).toHaveLength(1);
    await run(false, ++n);
    for (let i = 0; i < streak; i++) await run(true, ++n);
    const told = await notices();
    expect(told).toHaveLength(2);
    expect(told[0]!.details.lastError).toBe(`broken ${n}`);
    // Each notice is a `function_failing` notification too.
    const res = await asUser(t, owner, 'GET', '/api/notifications');
    const kinds = ((await res.json()) as { data: { kind: string; body: string }[] }).data;
    expect(kinds.filter((k) => k.kind === 'function_failing')).toEqual([
      expect.objectContaining({ body: expect.stringContaining(`broken ${n}`) }),
      expect.objectContaining({ body: expect.stringContaining('broken') }),
    ]);
  });
});
