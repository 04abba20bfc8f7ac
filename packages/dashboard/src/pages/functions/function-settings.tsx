import type { FunctionDetail } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { ActionForm, InputField } from '../../ui/form.js';
import { Section } from '../../ui/page.js';
import { useAction } from '../../ui/use-load.js';

/** One environment value as edited: a stored one keeps its value unless a new one is typed. */
interface EnvEntry {
  name: string;
  /** What was typed; empty for a stored value left as it is. */
  value: string;
  stored: boolean;
  removed: boolean;
}

/** The environment to deploy: stored values kept unless replaced or removed, new ones added. */
function nextEnv(entries: readonly EnvEntry[], stored: Readonly<Record<string, string>>) {
  const env: Record<string, string> = {};
  for (const entry of entries) {
    if (entry.removed) continue;
    if (entry.value !== '') env[entry.name] = entry.value;
    else if (entry.stored && entry.name in stored) env[entry.name] = stored[entry.name]!;
  }
  return env;
}

/**
 * A function's time and memory limits and its environment values (`ctx.env`). Values are often secrets, so the
 * page never shows a stored one: it lists their names, takes a new value or a removal, and sends the stored
 * values it keeps back unseen. The API changes these only with a deployment, so saving deploys the running code
 * again as a new version.
 */
export function FunctionSettings(props: { detail: FunctionDetail; onDeployed(): void }) {
  const { client } = useSession();
  const { detail } = props;
  const [timeoutMs, setTimeoutMs] = useState(String(detail.timeoutMs));
  const [memoryMb, setMemoryMb] = useState(String(detail.memoryMb));
  const [entries, setEntries] = useState<EnvEntry[]>(
    Object.keys(detail.env).map((name) => ({ name, value: '', stored: true, removed: false })),
  );
  const [added, setAdded] = useState({ name: '', value: '' });
  const save = useAction();
  const change = (name: string, patch: Partial<EnvEntry>) =>
    setEntries(entries.map((entry) => (entry.name === name ? { ...entry, ...patch } : entry)));

  return (
    <Section title="Limits and environment" id="function-settings">
      <ActionForm
        action={save}
        submit="Save limits and environment"
        run={async () => {
          const deployed = await client.functions.deploy(detail._id, {
            code: detail.code,
            timeoutMs: Number(timeoutMs),
            memoryMb: Number(memoryMb),
            env: nextEnv(entries, detail.env),
          });
          props.onDeployed();
          return `Saved as version ${deployed.version}.`;
        }}
      >
        <div class="row">
          <InputField
            id="function-timeout"
            label="Time limit (ms)"
            type="number"
            min={1}
            required
            value={timeoutMs}
            onValue={setTimeoutMs}
          />
          <InputField
            id="function-memory"
            label="Memory limit (MiB)"
            type="number"
            min={1}
            required
            value={memoryMb}
            onValue={setMemoryMb}
          />
        </div>
        <div class="table-scroll">
          <table>
            <caption>Environment values of {detail.name} (stored values are never shown)</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">New value</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {entries.length === 0 ? (
                <tr>
                  <td colSpan={3} class="empty">
                    No environment values.
                  </td>
                </tr>
              ) : null}
              {entries.map((entry) => (
                <tr key={entry.name}>
                  <td>
                    <code>{entry.name}</code>
                    {entry.removed ? ' (removed when saved)' : ''}
                  </td>
                  <td>
                    <input
                      type="password"
                      autocomplete="off"
                      aria-label={`New value of ${entry.name}`}
                      placeholder={entry.stored ? 'unchanged' : ''}
                      disabled={entry.removed}
                      value={entry.value}
                      onInput={(event) => change(entry.name, { value: event.currentTarget.value })}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      aria-pressed={entry.removed}
                      aria-label={`Remove ${entry.name}`}
                      onClick={() => change(entry.name, { removed: !entry.removed })}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div class="row">
          {(['name', 'value'] as const).map((part) => (
            <InputField
              key={part}
              id={`env-${part}`}
              label={`Variable ${part}`}
              // The name as the API takes it; the value typed like a password, never shown.
              {...(part === 'name'
                ? { pattern: '[A-Za-z_][A-Za-z0-9_]{0,127}' }
                : { type: 'password' as const })}
              value={added[part]}
              onValue={(typed) => setAdded({ ...added, [part]: typed })}
            />
          ))}
          <div class="field">
            <button
              type="button"
              disabled={added.name === '' || entries.some((entry) => entry.name === added.name)}
              onClick={() => {
                setEntries([...entries, { ...added, stored: false, removed: false }]);
                setAdded({ name: '', value: '' });
              }}
            >
              Add variable
            </button>
          </div>
        </div>
      </ActionForm>
    </Section>
  );
}
