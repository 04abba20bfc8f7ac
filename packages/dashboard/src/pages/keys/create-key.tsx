import type { ApiKeyWithSecret } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { Status } from '../../ui/status.js';
import { useAction } from '../../ui/use-load.js';
import { SCOPES, type Scope } from './scopes.js';

const EXPIRIES = { never: 'Never', '30d': 'In 30 days', '90d': 'In 90 days', '1y': 'In a year' } as const;

/** The form that creates a key on the chosen cluster; the answer carries its secret, shown once by the page. */
export function CreateKey(props: { onCreated(created: ApiKeyWithSecret): void }) {
  const { client, clusterId } = useSession();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['data:read']);
  const [expiresIn, setExpiresIn] = useState<keyof typeof EXPIRIES>('90d');
  const action = useAction();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const created = await client.keys.create({ name, scopes, clusterId, expiresIn });
          setName('');
          props.onCreated(created);
        });
      }}
    >
      <div class="field">
        <label for="key-name">Name</label>
        <input
          id="key-name"
          required
          maxLength={100}
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </div>
      <fieldset>
        <legend>Scopes</legend>
        <div class="checks">
          {(Object.entries(SCOPES) as [Scope, string][]).map(([scope, meaning]) => (
            <label key={scope}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(event) =>
                  setScopes(
                    event.currentTarget.checked
                      ? [...scopes, scope]
                      : scopes.filter((held) => held !== scope),
                  )
                }
              />
              <span>
                <code>{scope}</code> <span class="hint">{meaning}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div class="field">
        <label for="key-expiry">Expires</label>
        <select
          id="key-expiry"
          value={expiresIn}
          onChange={(event) => setExpiresIn(event.currentTarget.value as keyof typeof EXPIRIES)}
        >
          {Object.entries(EXPIRIES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" class="primary" disabled={action.busy || scopes.length === 0}>
        Create key
      </button>
      <Status error={action.error} />
    </form>
  );
}
