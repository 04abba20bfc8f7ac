import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

/**
 * A modal dialog on the browser's own `<dialog>`: it traps focus, closes on Escape and gives focus back to what
 * opened it, so keyboard users get all of that without code of ours.
 */
export function Dialog(props: {
  open: boolean;
  title: string;
  onClose(): void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose} class="dialog">
      {props.open ? (
        <>
          <h2 id={titleId}>{props.title}</h2>
          {props.children}
        </>
      ) : null}
    </dialog>
  );
}

/**
 * A button for something that cannot be undone: it asks first, naming what will happen, and runs `onConfirm` only
 * after the second, explicit choice.
 */
export function ConfirmButton(props: {
  label: string;
  /** The accessible name when the visible label alone is ambiguous in a list ("Delete key ci"). */
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  danger?: boolean;
  disabled?: boolean;
  onConfirm(): unknown;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        class={props.danger ? 'danger' : undefined}
        aria-label={props.ariaLabel}
        disabled={props.disabled}
        onClick={() => setOpen(true)}
      >
        {props.label}
      </button>
      <Dialog open={open} title="Please confirm" onClose={() => setOpen(false)}>
        <p>{props.question}</p>
        <div class="dialog-actions">
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button
            type="button"
            class={props.danger ? 'danger primary' : 'primary'}
            onClick={() => {
              setOpen(false);
              void props.onConfirm();
            }}
          >
            {props.confirmLabel}
          </button>
        </div>
      </Dialog>
    </>
  );
}
