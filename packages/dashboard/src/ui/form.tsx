import type { ComponentChildren } from 'preact';
import { Status } from './status.js';
import type { useAction } from './use-load.js';

/**
 * A form whose submission is one action: `run` under `action` (busy, then its message or error in the form's
 * status region), with the submit button named `submit` last.
 */
export function ActionForm(props: {
  action: ReturnType<typeof useAction>;
  run(): Promise<unknown>;
  submit: string;
  children: ComponentChildren;
}) {
  const { action } = props;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(props.run);
      }}
    >
      {props.children}
      <button type="submit" class="primary" disabled={action.busy}>
        {props.submit}
      </button>
      <Status error={action.error} notice={action.notice} />
    </form>
  );
}

/** A labelled input of one string value; the other attributes go to the input as they are. */
export function InputField(props: {
  id: string;
  label: string;
  value: string;
  onValue(value: string): void;
  type?: 'text' | 'number' | 'password';
  min?: number;
  required?: boolean;
  pattern?: string;
}) {
  const { id, label, value, onValue, type = 'text', ...rest } = props;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        // Preact types each input type apart (which roles it may take); any of these three is a plain input.
        type={type as 'text'}
        // A secret typed in is not offered back by the browser's autofill.
        autocomplete={type === 'password' ? 'off' : undefined}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
        {...rest}
      />
    </div>
  );
}
