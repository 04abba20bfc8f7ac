import type { AuthSession, DataPlatform } from '@dataplatform/sdk';
import { attempt, CliError, OperationError } from '../../errors/cli-error.js';
import { ExitCode } from '../../errors/exit-codes.js';
import type { IOStreams } from '../../iostreams.js';
import { duration } from './loopback.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** RFC 8628 §3.5: without a new interval in the answer, `slow_down` means 5 seconds more. */
const SLOW_DOWN_STEP = 5;

function failed(message: string, hint: string): CliError {
  return new CliError(message, { exitCode: ExitCode.auth, hint });
}

/**
 * Device sign-in (RFC 8628) for a terminal without a browser, such as an SSH session: prints where to go and the
 * short code, then polls every `interval` seconds until the person confirms or denies it, the code expires, or
 * `timeoutSeconds` pass.
 */
export async function signInWithDevice(
  client: DataPlatform,
  io: IOStreams,
  timeoutSeconds: number,
): Promise<AuthSession> {
  const started = await attempt('start a device sign-in', client.auth.device.start());
  const waitMs = Math.min(timeoutSeconds, started.expiresIn) * 1000;
  io.stderr.write(
    `To sign in, open ${started.verificationUri} on any device and enter this code:\n\n    ${started.userCode}\n\n` +
      `(or open ${started.verificationUriComplete})\n` +
      `Waiting for the confirmation (up to ${duration(waitMs)}; Ctrl-C to stop)…\n`,
  );
  const deadline = Date.now() + waitMs;
  let interval = started.interval;
  for (;;) {
    await sleep(Math.min(interval * 1000, Math.max(0, deadline - Date.now())));
    if (Date.now() >= deadline) {
      throw failed(
        `the code ${started.userCode} was not confirmed within ${duration(waitMs)}`,
        'run `dp login --no-browser` again and confirm the code on the page while it waits',
      );
    }
    try {
      return await client.auth.device.token(started.deviceCode);
    } catch (error) {
      const { code, details } = error as { code?: string; details?: { interval?: unknown } };
      if (code === 'authorization_pending') continue;
      if (code === 'slow_down') {
        interval = typeof details?.interval === 'number' ? details.interval : interval + SLOW_DOWN_STEP;
        continue;
      }
      if (code === 'access_denied') {
        throw failed(
          `the sign-in with code ${started.userCode} was denied on the confirmation page`,
          'run `dp login --no-browser` again and approve the code if you started it',
        );
      }
      if (code === 'expired_token') {
        throw failed(
          `the code ${started.userCode} expired before it was confirmed`,
          'run `dp login --no-browser` again',
        );
      }
      throw new OperationError('finish the device sign-in', error);
    }
  }
}
