import type { IpAllowlist } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { ActionForm } from '../ui/form.js';
import { Section } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { useAction, useLoad } from '../ui/use-load.js';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * The account's IP allowlist (`/api/settings/ip-allowlist`): one address or CIDR range a line, with the address
 * the server sees this browser at, since a non-empty list must include it (the server refuses one that would lock
 * the account out).
 */
function AllowlistForm(props: { allowlist: IpAllowlist }) {
  const { client } = useSession();
  const { clientIp } = props.allowlist;
  const [text, setText] = useState(props.allowlist.entries.join('\n'));
  const action = useAction();
  return (
    <ActionForm
      action={action}
      submit="Save allowlist"
      run={async () => {
        const saved = await client.settings.ipAllowlist.set(lines(text));
        setText(saved.entries.join('\n'));
        const count = saved.entries.length;
        return count === 0
          ? 'Lifted the allowlist: every address may use the account.'
          : `Saved the allowlist: ${count} ${count === 1 ? 'entry' : 'entries'}.`;
      }}
    >
      <div class="field">
        <label for="ip-allowlist">Allowed addresses and ranges, one a line</label>
        <textarea
          id="ip-allowlist"
          class="code short"
          spellcheck={false}
          aria-describedby="ip-allowlist-hint"
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <p id="ip-allowlist-hint" class="hint">
          IPv4 or IPv6, such as 203.0.113.7 or 2001:db8::/32. Empty lets every address in. The server sees
          this browser at <code>{clientIp}</code>; a list must include it.
        </p>
        <button
          type="button"
          disabled={lines(text).includes(clientIp)}
          onClick={() => setText([...lines(text), clientIp].join('\n'))}
        >
          Add my address
        </button>
      </div>
    </ActionForm>
  );
}

/** The allowlist's section of the settings page, once the server has answered. */
export function IpAllowlistSection() {
  const { client } = useSession();
  const allowlist = useLoad(() => client.settings.ipAllowlist.get(), [client]);
  return (
    <Section title="IP allowlist">
      <p>The profile, the API keys and this setting answer only to these addresses.</p>
      <Status error={allowlist.error} />
      {allowlist.data ? <AllowlistForm allowlist={allowlist.data} /> : null}
    </Section>
  );
}
