import { normalizeEmail } from '../bootstrap/accounts.js';
import { loadConfig } from '../config.js';
import { activityEntry } from '../services/activity.js';
import { openStorage } from '../storage/index.js';

/** What the operator types: `dataplatform-server credits grant <email> <cents>`. */
export const CREDITS_USAGE = 'usage: dataplatform-server credits grant <email> <cents>';

/** Where the command writes; the process's streams unless a test gives its own. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

const processOutput: CommandOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/**
 * Grants payg credits without Stripe, on the database the server's settings name (the same environment as the
 * server). A suspended account is active again at once, on every instance. Returns the exit code.
 */
export async function runCreditsCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  output: CommandOutput = processOutput,
): Promise<number> {
  const [verb, email, amount] = args;
  if (verb !== 'grant' || !email || !amount || args.length !== 3) {
    output.err(CREDITS_USAGE);
    return 2;
  }
  const cents = Number(amount);
  if (!Number.isSafeInteger(cents) || cents <= 0) {
    output.err(`credits grant: <cents> must be a whole number above 0, got "${amount}"`);
    return 2;
  }
  const storage = await openStorage(loadConfig(env));
  try {
    const granted = await storage.billing.grantCredits({ email: normalizeEmail(email) }, cents);
    if (granted === null || granted === 'replayed') {
      output.err(`credits grant: no user has the e-mail ${email}`);
      return 1;
    }
    // The owner sees the grant in their activity log, as they would a payment.
    await storage.sessions.addActivity(
      activityEntry(granted.userId, 'billing.credits_added', { ip: 'operator', userAgent: null }, { cents }),
    );
    output.out(`Granted ${cents} cents to ${email}: ${granted.credits} cents available.`);
    return 0;
  } finally {
    await storage.close();
  }
}
