import type { AccountSettings } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { PageHeader, Section } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { useAction, useLoad } from '../ui/use-load.js';
import { IpAllowlistSection } from './ip-allowlist.js';

/** The settings form, filled from what the server holds once; saving sends the form as a merge patch. */
function SettingsForm(props: { settings: AccountSettings }) {
  const { client, clusters } = useSession();
  const { settings } = props;
  const [name, setName] = useState(settings.account.name);
  const [timezone, setTimezone] = useState(settings.account.timezone);
  const [hours, setHours] = useState(String(settings.security.sessionLifetimeHours));
  const [defaultCluster, setDefaultCluster] = useState(settings.data.defaultClusterId ?? '');
  const action = useAction();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          await client.settings.update({
            account: { name, timezone },
            security: { sessionLifetimeHours: Number(hours) },
            data: { defaultClusterId: defaultCluster || null },
          });
          return 'Settings saved.';
        });
      }}
    >
      <Section title="Account">
        <div class="field">
          <label for="settings-name">Name</label>
          <input
            id="settings-name"
            required
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="settings-timezone">Time zone</label>
          <input
            id="settings-timezone"
            value={timezone}
            aria-describedby="settings-timezone-hint"
            onInput={(event) => setTimezone(event.currentTarget.value)}
          />
          <p id="settings-timezone-hint" class="hint">
            An IANA name such as Europe/Oslo; this browser's is{' '}
            {Intl.DateTimeFormat().resolvedOptions().timeZone}.
          </p>
        </div>
      </Section>
      <Section title="Security">
        <div class="field">
          <label for="settings-hours">Session lifetime (hours)</label>
          <input
            id="settings-hours"
            type="number"
            min={1}
            required
            value={hours}
            onInput={(event) => setHours(event.currentTarget.value)}
          />
        </div>
      </Section>
      <Section title="Data">
        <div class="field">
          <label for="settings-cluster">Default cluster</label>
          <select
            id="settings-cluster"
            value={defaultCluster}
            onChange={(event) => setDefaultCluster(event.currentTarget.value)}
          >
            <option value="">None</option>
            {clusters.map((cluster) => (
              <option key={cluster._id} value={cluster._id}>
                {cluster.name}
              </option>
            ))}
          </select>
        </div>
      </Section>
      <button type="submit" class="primary" disabled={action.busy}>
        Save settings
      </button>
      <Status error={action.error} notice={action.notice} />
    </form>
  );
}

/** The account's settings: name, time zone, session lifetime, default cluster, IP allowlist. */
export default function Settings() {
  const { client } = useSession();
  const settings = useLoad(() => client.settings.get(), [client]);
  return (
    <>
      <PageHeader title="Settings" intro="Your account, its security and where data calls go by default." />
      <Status error={settings.error} />
      {settings.data ? <SettingsForm settings={settings.data} /> : null}
      <IpAllowlistSection />
    </>
  );
}
