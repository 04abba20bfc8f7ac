import type { Cluster, ClusterRole } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { ConfirmButton } from '../ui/dialog.js';
import { bytes, count, when } from '../ui/format.js';
import { PageHeader, Section } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { DataTable } from '../ui/table.js';
import { useAction, useLoad } from '../ui/use-load.js';

const ROLES: Record<ClusterRole, string> = {
  owner: 'Owner: everything',
  admin: 'Admin: everything but deleting the cluster and billing',
  developer: 'Developer: data, keys, webhooks, functions, triggers, schema, backups',
  viewer: 'Viewer: read only',
};

/** The members of one cluster: their roles, changing them, removing them, and inviting someone. */
function Members(props: { cluster: Cluster }) {
  const { client } = useSession();
  const { cluster } = props;
  const members = useLoad(() => client.clusters.members.list(cluster._id), [client, cluster._id]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<ClusterRole>('developer');
  const action = useAction();
  return (
    <Section title={`Members of ${cluster.name}`} id="members">
      <Status error={members.error ?? action.error} notice={action.notice} />
      <DataTable
        caption={`Members of ${cluster.name}`}
        columns={[
          { label: 'E-mail', cell: (m) => m.email },
          {
            label: 'Role',
            cell: (m) => (
              <select
                aria-label={`Role of ${m.email}`}
                value={m.role}
                onChange={(event) => {
                  const next = event.currentTarget.value as ClusterRole;
                  void action.run(async () => {
                    await client.clusters.members.update(cluster._id, m.userId, next);
                    await members.reload();
                    return `${m.email} is now ${next}.`;
                  });
                }}
              >
                {Object.keys(ROLES).map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </select>
            ),
          },
          {
            label: 'Actions',
            cell: (m) => (
              <ConfirmButton
                label="Remove"
                ariaLabel={`Remove ${m.email}`}
                danger
                question={`Remove ${m.email} from ${cluster.name}?`}
                confirmLabel="Remove member"
                onConfirm={() =>
                  action.run(async () => {
                    await client.clusters.members.remove(cluster._id, m.userId);
                    await members.reload();
                    return `Removed ${m.email}.`;
                  })
                }
              />
            ),
          },
        ]}
        rows={members.data?.data ?? []}
        rowKey={(m) => m.userId}
        empty={members.loading ? 'Loading…' : 'No members.'}
      />
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            const invitation = await client.clusters.invitations.create(cluster._id, { email, role });
            setEmail('');
            return `Invited ${invitation.email} as ${invitation.role}; the link works until ${when(invitation.expiresAt)}.`;
          });
        }}
      >
        <div class="field">
          <label for="invite-email">E-mail to invite</label>
          <input
            id="invite-email"
            type="email"
            required
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="invite-role">Role</label>
          <select
            id="invite-role"
            value={role}
            onChange={(event) => setRole(event.currentTarget.value as ClusterRole)}
          >
            {Object.entries(ROLES).map(([name, meaning]) => (
              <option key={name} value={name}>
                {meaning}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <button type="submit">Send invitation</button>
        </div>
      </form>
    </Section>
  );
}

/** The user's clusters: create, pause, resume and delete them, and manage the chosen one's members. */
export default function Clusters() {
  const { client, clusters, clusterId, reloadClusters, setClusterId } = useSession();
  const [name, setName] = useState('');
  const action = useAction();
  const chosen = clusters.find((cluster) => cluster._id === clusterId);
  const act = (work: () => Promise<string>) =>
    action.run(async () => {
      const message = await work();
      await reloadClusters();
      return message;
    });
  return (
    <>
      <PageHeader
        title="Clusters and members"
        intro="Each cluster holds its own data, keys and functions; members share it by role."
      />
      <Status error={action.error} notice={action.notice} />
      <DataTable
        caption="Your clusters"
        columns={[
          { label: 'Name', cell: (c) => (c._id === clusterId ? <strong>{c.name} (chosen)</strong> : c.name) },
          { label: 'Region', cell: (c) => c.region },
          { label: 'Tier', cell: (c) => c.tier },
          { label: 'Status', cell: (c) => <span class={`status-${c.status}`}>{c.status}</span> },
          { label: 'Documents', cell: (c) => count(c.documentCount) },
          { label: 'Storage', cell: (c) => bytes(c.storageBytes) },
          {
            label: 'Actions',
            cell: (c) => (
              <div class="actions">
                <button
                  type="button"
                  aria-label={`Choose cluster ${c.name}`}
                  disabled={c._id === clusterId}
                  onClick={() => setClusterId(c._id)}
                >
                  Choose
                </button>
                {c.status === 'paused' ? (
                  <button
                    type="button"
                    aria-label={`Resume cluster ${c.name}`}
                    onClick={() => act(async () => `Resumed ${(await client.clusters.resume(c._id)).name}.`)}
                  >
                    Resume
                  </button>
                ) : (
                  <ConfirmButton
                    label="Pause"
                    ariaLabel={`Pause cluster ${c.name}`}
                    disabled={c.status !== 'running'}
                    question={`Pause ${c.name}? Every data request to it answers 503 until it is resumed.`}
                    confirmLabel="Pause cluster"
                    onConfirm={() => act(async () => `Paused ${(await client.clusters.pause(c._id)).name}.`)}
                  />
                )}
                <ConfirmButton
                  label="Delete"
                  ariaLabel={`Delete cluster ${c.name}`}
                  danger
                  question={`Delete ${c.name} with all its data and keys? This cannot be undone.`}
                  confirmLabel="Delete cluster"
                  onConfirm={() =>
                    act(async () => {
                      await client.clusters.delete(c._id);
                      return `Deleting ${c.name}.`;
                    })
                  }
                />
              </div>
            ),
          },
        ]}
        rows={clusters}
        rowKey={(c) => c._id}
      />
      {chosen ? <Members key={chosen._id} cluster={chosen} /> : null}
      <Section title="Create a cluster">
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            void act(async () => {
              const created = await client.clusters.create({ name });
              setName('');
              return `Created ${created.name}.`;
            });
          }}
        >
          <div class="field">
            <label for="cluster-name">Name</label>
            <input
              id="cluster-name"
              required
              value={name}
              onInput={(event) => setName(event.currentTarget.value)}
            />
          </div>
          <div class="field">
            <button type="submit" class="primary" disabled={action.busy}>
              Create cluster
            </button>
          </div>
        </form>
      </Section>
    </>
  );
}
