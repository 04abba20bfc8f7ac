import { useState } from 'preact/hooks';

/** A secret the server shows this once (a new API key or webhook secret), with a copy button. */
export function SecretOnce(props: { label: string; secret: string; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section class="secret" aria-label={props.label}>
      <p>
        <strong>{props.label}.</strong> Copy it now: it is shown only this once and cannot be read again.
      </p>
      <code class="secret-value" data-testid="secret">
        {props.secret}
      </code>
      <div class="actions">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard?.writeText(props.secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={props.onDone}>
          I have stored it
        </button>
      </div>
    </section>
  );
}
