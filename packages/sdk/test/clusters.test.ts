import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../src/index.js';
import { useMockedApi } from './mocked-api.js';

const { mocks, signedIn } = useMockedApi();

describe('client.clusters', () => {
  it('creates, lists, changes, pauses, resumes and deletes a cluster within the plan', async () => {
    const client = await signedIn();
    await expect(client.clusters.create({ name: 'second' })).rejects.toMatchObject({ code: 'plan_limit' });
    await client.auth.choosePlan('team');
    const cluster = await client.clusters.create({ name: 'staging' });
    expect(cluster).toMatchObject({ name: 'staging', status: 'creating', region: 'local' });
    expect((await client.clusters.get(cluster._id)).status).toBe('running');
    const names: string[] = [];
    for await (const each of client.clusters.list()) names.push(each.name);
    expect(names).toEqual(['default', 'staging']);
    expect((await client.clusters.update(cluster._id, { name: 'prod' })).name).toBe('prod');
    expect((await client.clusters.pause(cluster._id)).status).toBe('paused');
    expect((await client.clusters.resume(cluster._id)).status).toBe('running');
    const job = await client.clusters.delete(cluster._id);
    expect(job).toMatchObject({ kind: 'cluster.delete', input: { clusterId: cluster._id } });
    await expect(client.clusters.get(cluster._id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('invites by e-mail; the invited user accepts and is listed; the last owner cannot leave', async () => {
    const owner = await signedIn();
    const [cluster] = (await owner.clusters.list()).data;
    const invited = await signedIn();
    const me = await invited.auth.me();
    await owner.clusters.invitations.create(cluster!._id, { email: me.user.email, role: 'developer' });
    const token = mocks.outbox().find((mail) => mail.to === me.user.email)!.invitationToken!;
    const member = await invited.clusters.invitations.accept(token);
    expect(member).toMatchObject({ role: 'developer' });
    const { data } = await owner.clusters.members.list(cluster!._id);
    expect(data.map((m) => m.role)).toEqual(['owner', 'developer']);
    expect((await owner.clusters.members.update(cluster!._id, member.userId, 'viewer')).role).toBe('viewer');
    const ownerId = data[0]!.userId;
    await expect(owner.clusters.members.remove(cluster!._id, ownerId)).rejects.toBeInstanceOf(ConflictError);
    await owner.clusters.members.remove(cluster!._id, member.userId);
  });
});
