/**
 * An abort signal for Ctrl-C and SIGTERM, for commands that run until stopped; `dispose` removes the listeners,
 * so a second Ctrl-C after it ends the process at once.
 */
export function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', abort);
      process.off('SIGTERM', abort);
    },
  };
}
