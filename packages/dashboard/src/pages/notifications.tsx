import type { NotificationPreferences } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { ConfirmButton } from '../ui/dialog.js';
import { when } from '../ui/format.js';
import { PageHeader, Section } from '../ui/page.js';
import { Pager } from '../ui/pager.js';
import { Status } from '../ui/status.js';
import { DataTable } from '../ui/table.js';
import { useAction, useLoad } from '../ui/use-load.js';

const LIMIT = 20;
type Kind = keyof NotificationPreferences;

/** What each kind of notification is about, in the words of the preferences table. */
const KINDS: Record<Kind, string> = {
  new_sign_in: 'A sign-in from a new address',
  account_locked: 'The account locked after failed sign-ins',
  webhook_failing: 'A webhook keeps failing',
  webhook_disabled: 'A webhook was disabled',
  key_expiring: 'An API key expires soon',
  trial_ending: 'The trial ends soon',
  usage_limit: 'Usage nears the plan limit',
  backup_failed: 'A backup failed',
  function_failing: 'A function keeps failing',
};

function Preferences() {
  const { client } = useSession();
  const preferences = useLoad(() => client.notifications.preferences(), [client]);
  // The boxes show the choice at once; a refused save puts back what the server holds.
  const [shown, setShown] = useState<NotificationPreferences | null>(null);
  const action = useAction();
  const current = shown ?? preferences.data;
  const set = (kind: Kind, channel: 'inApp' | 'email', value: boolean) => {
    const change = { ...current![kind], [channel]: value };
    setShown({ ...current!, [kind]: change });
    return action.run(async () => {
      try {
        setShown(await client.notifications.setPreferences({ [kind]: change }));
      } catch (failure) {
        setShown(null);
        throw failure;
      }
      return 'Preferences saved.';
    });
  };
  return (
    <Section title="Preferences">
      <Status error={preferences.error ?? action.error} notice={action.notice} />
      {current ? (
        <DataTable
          caption="Where each kind of notification goes"
          columns={[
            { label: 'Kind', cell: ([kind]) => KINDS[kind] },
            ...(['inApp', 'email'] as const).map((channel) => ({
              label: channel === 'inApp' ? 'In the dashboard' : 'By e-mail',
              cell: ([kind, value]: [Kind, { inApp: boolean; email: boolean }]) => (
                <input
                  type="checkbox"
                  aria-label={`${KINDS[kind]}: ${channel === 'inApp' ? 'in the dashboard' : 'by e-mail'}`}
                  checked={value[channel]}
                  onChange={(event) => void set(kind, channel, event.currentTarget.checked)}
                />
              ),
            })),
          ]}
          rows={Object.entries(current) as [Kind, { inApp: boolean; email: boolean }][]}
          rowKey={([kind]) => kind}
        />
      ) : null}
    </Section>
  );
}

/** The signed-in user's notifications: read them, mark them read (the badge follows), delete them. */
export default function Notifications() {
  const { client, refreshUnread } = useSession();
  const [skip, setSkip] = useState(0);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useLoad(
    () => client.notifications.page({ limit: LIMIT, skip, ...(unreadOnly ? { unread: true } : {}) }),
    [client, skip, unreadOnly],
  );
  const action = useAction();
  const act = (work: () => Promise<string>) =>
    action.run(async () => {
      const message = await work();
      await list.reload();
      refreshUnread();
      return message;
    });
  const rows = list.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Notifications"
        intro="What the service has to tell you: sign-ins, failing webhooks, expiring keys."
      >
        <button
          type="button"
          disabled={!list.data || list.data.unread === 0}
          onClick={() => act(async () => `Marked ${(await client.notifications.readAll()).read} read.`)}
        >
          Mark all read
        </button>
      </PageHeader>
      <Status error={list.error ?? action.error} notice={action.notice} />
      <label class="field">
        <input
          type="checkbox"
          checked={unreadOnly}
          onChange={(event) => {
            setUnreadOnly(event.currentTarget.checked);
            setSkip(0);
          }}
        />{' '}
        Unread only
      </label>
      <DataTable
        caption={`Notifications, newest first${list.data ? `; ${list.data.unread} unread` : ''}`}
        columns={[
          { label: 'When', cell: (n) => when(n.createdAt) },
          {
            label: 'Notification',
            cell: (n) => (
              <>
                <strong>{n.readAt ? n.title : `● ${n.title}`}</strong>
                {n.readAt ? null : <span class="visually-hidden"> (unread)</span>}
                <br />
                {n.body}
              </>
            ),
          },
          {
            label: 'Actions',
            cell: (n) => (
              <div class="actions">
                <button
                  type="button"
                  aria-label={`Mark read: ${n.title}`}
                  disabled={n.readAt !== null}
                  onClick={() =>
                    act(async () => {
                      await client.notifications.read(n._id);
                      return `Marked ${n.title} read.`;
                    })
                  }
                >
                  Mark read
                </button>
                <ConfirmButton
                  label="Delete"
                  ariaLabel={`Delete notification ${n.title}`}
                  danger
                  question={`Delete the notification "${n.title}"?`}
                  confirmLabel="Delete notification"
                  onConfirm={() =>
                    act(async () => {
                      await client.notifications.delete(n._id);
                      return `Deleted ${n.title}.`;
                    })
                  }
                />
              </div>
            ),
          },
        ]}
        rows={rows}
        rowKey={(n) => n._id}
        busy={list.loading}
        empty={list.loading ? 'Loading…' : 'No notifications.'}
      />
      {list.data ? (
        <Pager
          label="notifications"
          total={list.data.total}
          skip={skip}
          limit={LIMIT}
          shown={rows.length}
          onSkip={setSkip}
        />
      ) : null}
      <Preferences />
    </>
  );
}
