import { APIError, type DataPlatform } from '@dataplatform/sdk';
import { goToSignIn } from './session.js';

/** How long to wait before opening the stream again after it ended or failed. */
const REOPEN_AFTER_MS = 5_000;

/**
 * Calls `changed` whenever a notification is raised for the signed-in user, from the notification stream, until
 * `signal` aborts; and once each time the stream (re)opens, since notifications may have been raised while it was
 * closed. A stream that ends or fails is opened again after a pause; meanwhile the shell's periodic refresh keeps
 * the badge near the truth.
 */
export async function followNotifications(base: DataPlatform, signal: AbortSignal, changed: () => void) {
  while (!signal.aborted) {
    try {
      for await (const _ of base.notifications.stream({ signal, onOpen: changed })) changed();
    } catch (error) {
      // The session ended: as for any call, sign in again. Otherwise the connection dropped: try again later.
      if (error instanceof APIError && error.status === 401) return goToSignIn();
    }
    if (signal.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, REOPEN_AFTER_MS));
  }
}
