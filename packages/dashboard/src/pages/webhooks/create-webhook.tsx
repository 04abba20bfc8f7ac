import type { WebhookCreateRequest, WebhookWithSecret } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { Status } from '../../ui/status.js';
import { useAction } from '../../ui/use-load.js';

type EventName = WebhookCreateRequest['events'][number];
const EVENTS: Record<Exclude<EventName, '*'>, string> = {
  'document.created': 'Created',
  'document.updated': 'Updated',
  'document.deleted': 'Deleted',
};

/** The form that subscribes a receiver; the answer carries the signing secret, shown once by the page. */
export function CreateWebhook(props: { onCreated(created: WebhookWithSecret): void }) {
  const { client } = useSession();
  const [url, setUrl] = useState('');
  const [collection, setCollection] = useState('');
  const [events, setEvents] = useState<EventName[]>(['document.created']);
  const action = useAction();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const created = await client.webhooks.create({
            url,
            events,
            ...(collection ? { collection } : {}),
          });
          setUrl('');
          props.onCreated(created);
        });
      }}
    >
      <div class="field">
        <label for="webhook-url">Receiver address</label>
        <input
          id="webhook-url"
          type="url"
          required
          placeholder="https://example.com/hooks/dataplatform"
          value={url}
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
      </div>
      <fieldset>
        <legend>Events</legend>
        <div class="checks">
          {(Object.entries(EVENTS) as [EventName, string][]).map(([name, label]) => (
            <label key={name}>
              <input
                type="checkbox"
                checked={events.includes(name)}
                onChange={(event) =>
                  setEvents(
                    event.currentTarget.checked ? [...events, name] : events.filter((held) => held !== name),
                  )
                }
              />
              <span>
                {label} <code class="hint">{name}</code>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div class="field">
        <label for="webhook-collection">Collection (optional)</label>
        <input
          id="webhook-collection"
          value={collection}
          aria-describedby="webhook-collection-hint"
          onInput={(event) => setCollection(event.currentTarget.value)}
        />
        <p id="webhook-collection-hint" class="hint">
          Leave empty for the events of every collection.
        </p>
      </div>
      <button type="submit" class="primary" disabled={action.busy || events.length === 0}>
        Create webhook
      </button>
      <Status error={action.error} />
    </form>
  );
}
