/** A timer that aborts `signal` when it runs out, and also when the caller's own signal aborts. */
export interface Deadline {
  signal: AbortSignal;
  /** True once the timer, not the caller, aborted. */
  expired: boolean;
  /** Stops the timer and stops following the caller's signal. */
  clear(): void;
}

/** Starts a deadline of `ms` milliseconds that also follows `outer`. */
export function startDeadline(ms: number, outer: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  const timer = setTimeout(() => {
    deadline.expired = true;
    controller.abort();
  }, ms);
  const deadline: Deadline = {
    signal: controller.signal,
    expired: false,
    clear() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return deadline;
}
