/** A page's messages: errors as alerts (read out at once), other news politely. */
export function Status(props: { error?: string | null | undefined; notice?: string | null | undefined }) {
  return (
    <>
      {props.error ? (
        <p class="message error" role="alert">
          {props.error}
        </p>
      ) : null}
      <p class="message notice" role="status" aria-live="polite">
        {props.notice ?? ''}
      </p>
    </>
  );
}
