import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newClusterActionCommand } from './change.js';
import { newClustersCreateCommand } from './create.js';

describe('dp clusters: arguments', () => {
  it('parses create and the actions', async () => {
    expect(
      await parseArgs(newClustersCreateCommand, ['--name', 'staging', '--tier', 'starter']),
    ).toMatchObject({
      ok: true,
      options: { name: 'staging', tier: 'starter' },
    });
    for (const action of ['get', 'pause', 'resume', 'delete'] as const) {
      expect(await parseArgs((f, run) => newClusterActionCommand(action, f, run), ['cls_1'])).toMatchObject({
        ok: true,
        options: { id: 'cls_1' },
      });
    }
  });

  it.each([
    [newClustersCreateCommand, []],
    [newClustersCreateCommand, ['--name', 'x', '--tier', 'gold']],
  ] as const)('refuses bad arguments with exit status 2 (%#)', async (make, argv) => {
    expect(await parseArgs(make as never, [...argv])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp clusters: run', () => {
  const api = useMockApi();

  async function signedIn(plan: string) {
    const base = api.env.DATAPLATFORM_BASE_URL;
    const res = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `c-${Math.random().toString(36).slice(2)}@example.com`,
        password: 'a long passphrase',
        name: 'C',
      }),
    });
    const { token } = (await res.json()) as { token: string };
    await fetch(`${base}/api/auth/plan-choice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ plan }),
    });
    return { DATAPLATFORM_BASE_URL: base!, DATAPLATFORM_TOKEN: token };
  }

  it('creates, lists, pauses and deletes a cluster', async () => {
    const env = await signedIn('team');
    const created = await runCli(['clusters', 'create', '--name', 'staging', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const cluster = JSON.parse(created.stdout) as { _id: string; status: string };
    expect(cluster.status).toBe('creating');
    const list = await runCli(['clusters', '--json'], { env });
    expect((JSON.parse(list.stdout) as { total: number }).total).toBe(2);
    const paused = await runCli(['clusters', 'pause', cluster._id, '--json'], { env });
    expect(JSON.parse(paused.stdout)).toMatchObject({ status: 'paused' });
    const deleted = await runCli(['clusters', 'delete', cluster._id, '--json'], { env });
    expect(JSON.parse(deleted.stdout)).toMatchObject({ kind: 'cluster.delete' });
    const gone = await runCli(['clusters', 'get', cluster._id], { env });
    expect(gone.code).toBe(4);
  });

  it('exits 5 past the plan, and lists the members', async () => {
    const env = await signedIn('free');
    const refused = await runCli(['clusters', 'create', '--name', 'second'], { env });
    expect(refused.code).toBe(5);
    const list = await runCli(['clusters', '--json'], { env });
    const [cluster] = (JSON.parse(list.stdout) as { data: { _id: string }[] }).data;
    const members = await runCli(['clusters', 'members', 'list', cluster!._id, '--json'], { env });
    expect(JSON.parse(members.stdout)).toMatchObject({ data: [{ role: 'owner' }] });
  });

  it('sends --cluster as X-Cluster-Id, and a cluster not the user’s is refused (exit 5)', async () => {
    const env = await signedIn('free');
    const refused = await runCli(['--cluster', 'cls_elsewhere', 'data', 'list', 'orders'], { env });
    expect(refused.code, refused.stderr).toBe(5);
  });
});
