import type { Plan } from '@dataplatform/sdk';
import { useSession } from '../context.js';
import { bytes, count, when } from '../ui/format.js';
import { PageHeader, Section } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { DataTable } from '../ui/table.js';
import { useAction, useLoad } from '../ui/use-load.js';

const PLANS: Record<Plan, string> = {
  free: 'Free',
  starter: 'Starter',
  team: 'Team',
  payg: 'Pay as you go',
};

const money = (cents: number, currency = 'usd') =>
  (cents / 100).toLocaleString(undefined, { style: 'currency', currency: currency.toUpperCase() });

/** The billing account: plan and trial, daily usage metered from real traffic, and invoices. */
export default function Billing() {
  const { client, clusters } = useSession();
  const account = useLoad(() => client.billing.get(), [client]);
  const usage = useLoad(() => {
    const to = new Date();
    const from = new Date(to.getTime() - 30 * 86_400_000);
    return client.billing.usage({ from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) });
  }, [client]);
  const invoices = useLoad(() => client.billing.invoices.list({ limit: 24 }), [client]);
  const action = useAction();
  const a = account.data;
  const clusterName = (id: string) => clusters.find((cluster) => cluster._id === id)?.name ?? id;
  return (
    <>
      <PageHeader title="Billing and usage" intro="Your plan, what this account used, and what it costs." />
      <Status error={account.error ?? action.error} notice={action.notice} />
      {a ? (
        <>
          <dl class="cards">
            <div class="card">
              <dt>Plan</dt>
              <dd>{PLANS[a.plan]}</dd>
            </div>
            <div class="card">
              <dt>Rate-limit tier</dt>
              <dd>{a.tier}</dd>
            </div>
            <div class="card">
              <dt>Status</dt>
              <dd>{a.status}</dd>
            </div>
            <div class="card">
              <dt>Credits</dt>
              <dd>{money(a.credits)}</dd>
            </div>
            <div class="card">
              <dt>Trial</dt>
              <dd>{a.trialActive ? `until ${when(a.trialExpiresAt)}` : 'none'}</dd>
            </div>
          </dl>
          <Section title="Change plan">
            <div class="field">
              <label for="billing-plan">Plan</label>
              <select
                id="billing-plan"
                value={a.plan}
                disabled={action.busy}
                onChange={(event) => {
                  const plan = event.currentTarget.value as Plan;
                  void action.run(async () => {
                    await client.billing.setPlan(plan);
                    await account.reload();
                    return `Now on the ${PLANS[plan]} plan.`;
                  });
                }}
              >
                {Object.entries(PLANS).map(([plan, label]) => (
                  <option key={plan} value={plan}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
          </Section>
        </>
      ) : null}
      <Section title="Usage in the last 30 days">
        <Status error={usage.error} />
        <DataTable
          caption="Usage per day and cluster"
          columns={[
            { label: 'Day', cell: (d) => d.date },
            { label: 'Cluster', cell: (d) => clusterName(d.clusterId) },
            { label: 'Requests', cell: (d) => count(d.requests) },
            { label: 'Documents', cell: (d) => count(d.documents) },
            { label: 'Storage', cell: (d) => bytes(d.storageBytes) },
            { label: 'Function runs', cell: (d) => count(d.functionInvocations) },
            { label: 'Webhook deliveries', cell: (d) => count(d.webhookDeliveries) },
          ]}
          rows={usage.data?.data ?? []}
          rowKey={(d) => `${d.date}-${d.clusterId}`}
          empty={usage.loading ? 'Loading…' : 'No usage yet.'}
        />
      </Section>
      <Section title="Invoices">
        <Status error={invoices.error} />
        <DataTable
          caption="Invoices, newest first"
          columns={[
            { label: 'Period', cell: (i) => `${i.period.start.slice(0, 10)} – ${i.period.end.slice(0, 10)}` },
            { label: 'Status', cell: (i) => i.status },
            { label: 'Lines', cell: (i) => i.lines.map((line) => line.description).join(', ') },
            { label: 'Total', cell: (i) => money(i.total, i.currency) },
          ]}
          rows={invoices.data?.data ?? []}
          rowKey={(i) => i._id}
          empty={invoices.loading ? 'Loading…' : 'No invoices yet.'}
        />
      </Section>
    </>
  );
}
