import { createHash, randomBytes } from 'node:crypto';
import { RESET_LINK_MINUTES } from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthLimiter } from '../auth/auth-limits.js';
import type { ClientInfo } from '../auth/client.js';
import { checkNewPassword } from '../auth/password-rules.js';
import { hashPassword } from '../auth/passwords.js';
import { normalizeEmail } from '../bootstrap/accounts.js';
import { ApiError } from '../http/errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { Storage } from '../storage/types.js';
import { type ActivityLog, activityEntry } from './activity.js';

/** Reset tokens are stored as their SHA-256: a copy of the database does not hold a usable link. */
function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** The e-mail with the reset link. */
export function resetMessage(to: string, link: string, token: string) {
  return {
    to,
    subject: 'Reset your dataplatform password',
    text: [
      'Someone asked to reset the password of your dataplatform account.',
      '',
      `Open this link within ${RESET_LINK_MINUTES} minutes to choose a new password:`,
      link,
      '',
      `Or send the token with POST /api/auth/reset-password: ${token}`,
      '',
      'The link works once. If you did not ask for it, ignore this message: your password stays as it is.',
    ].join('\n'),
  };
}

/** Password reset by e-mail: a single-use token, valid 30 minutes, stored hashed. */
export class PasswordResetService {
  // Mail goes out after the answer; close() waits for what is still on its way.
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly storage: Storage,
    private readonly mailer: Mailer,
    private readonly limiter: AuthLimiter,
    private readonly activity: ActivityLog,
    private readonly log: FastifyBaseLogger,
    private readonly appUrl: () => string,
  ) {}

  /**
   * Accepts the request whatever the address: the work (and the e-mail) happens after the answer, so neither
   * the answer nor its timing tells whether the address has an account.
   */
  async request(email: string, client: ClientInfo): Promise<{ accepted: true }> {
    await this.limiter.consume('reset', client.ip);
    const work = this.send(normalizeEmail(email), client)
      .catch((error: Error) =>
        this.log.error({ err: { message: error.message } }, 'password reset mail failed'),
      )
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
    return { accepted: true };
  }

  private async send(email: string, client: ClientInfo): Promise<void> {
    const user = await this.storage.accounts.findByEmail(email);
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await this.storage.sessions.createReset({
      tokenHash: tokenHash(token),
      userId: user.id,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000).toISOString(),
    });
    await this.activity.record(user.id, 'password.reset_requested', client);
    const link = `${this.appUrl()}/reset-password?token=${encodeURIComponent(token)}`;
    await this.mailer.send(resetMessage(user.email, link, token));
  }

  /** Sets the new password, uses up the token and ends every session of the user, all in one transaction. */
  async complete(token: string, password: string, client: ClientInfo) {
    // Each attempt hashes a password, as a sign-in does: it counts against the same per-address limit.
    await this.limiter.consume('signin', client.ip);
    await checkNewPassword(password);
    // The user is known only once the token is used, inside the transaction, which fills in the id.
    const { userId: _unknown, ...activity } = activityEntry('', 'password.reset', client);
    const done = await this.storage.sessions.completeReset({
      tokenHash: tokenHash(token),
      passwordHash: await hashPassword(password),
      now: new Date().toISOString(),
      activity,
    });
    if (!done) {
      throw new ApiError('validation_error', 'The reset token is unknown, used or expired', {
        in: 'body',
        field: 'token',
      });
    }
    return { reset: true as const, sessionsEnded: done.sessionsEnded };
  }

  /** Waits for the reset mail still on its way. */
  async drain(): Promise<void> {
    await Promise.all(this.pending);
  }
}
