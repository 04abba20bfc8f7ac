import type { StoredDocument } from '@dataplatform/sdk';
import { useId, useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { Dialog } from '../../ui/dialog.js';
import { describeError } from '../../ui/errors.js';

const SYSTEM_FIELDS = ['_id', '_createdAt', '_updatedAt'];

/** The document's own fields, as the editor shows them: the server keeps `_id` and the timestamps itself. */
function editable(document: StoredDocument<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(document).filter(([name]) => !SYSTEM_FIELDS.includes(name)));
}

/** Why `text` cannot be saved as a document body, or null when it can. */
function problem(text: string): string | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? null
      : 'A document is a JSON object: { "field": value, … }.';
  } catch (error) {
    return `Not valid JSON: ${(error as Error).message}`;
  }
}

/**
 * A JSON editor in a dialog: a new document (`document` undefined; an `_id` may be given) or the replacement of an
 * existing one (PUT: the text is the whole new body; `_id` and `_createdAt` are kept by the server).
 */
export function DocumentEditor(props: {
  collection: string;
  document: StoredDocument<Record<string, unknown>> | undefined;
  open: boolean;
  onClose(): void;
  onSaved(message: string): void;
}) {
  const { client } = useSession();
  const { collection, document } = props;
  const [text, setText] = useState(() => JSON.stringify(document ? editable(document) : {}, null, 2));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldId = useId();
  const invalid = problem(text);
  const title = document ? `Edit document ${document._id}` : `New document in ${collection}`;

  async function save(event: Event) {
    event.preventDefault();
    if (invalid) return;
    setBusy(true);
    setError(null);
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      const saved = document
        ? await client.data.replace(collection, document._id, body)
        : await client.data.create(collection, body);
      props.onSaved(`${document ? 'Saved' : 'Created'} document ${saved._id}.`);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={props.open} title={title} onClose={props.onClose}>
      <form onSubmit={save}>
        <div class="field">
          <label for={fieldId}>Document (JSON)</label>
          <textarea
            id={fieldId}
            class="code"
            spellcheck={false}
            value={text}
            aria-invalid={invalid ? 'true' : undefined}
            aria-describedby={`${fieldId}-hint`}
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <p id={`${fieldId}-hint`} class={invalid ? 'hint message error' : 'hint'}>
            {invalid ??
              (document
                ? 'The whole new body: fields left out are removed.'
                : 'Leave out _id to get a generated one.')}
          </p>
        </div>
        {error ? (
          <p class="message error" role="alert">
            {error}
          </p>
        ) : null}
        <div class="dialog-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={busy || invalid !== null}>
            {document ? 'Save document' : 'Create document'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
