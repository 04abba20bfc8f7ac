import { type BillingAccount, rateTierOf, TRIAL_DAYS } from '@dataplatform/contract';
import type { AuthLimiter } from '../auth/auth-limits.js';
import { slowdownMs } from '../auth/auth-limits.js';
import type { ClientInfo } from '../auth/client.js';
import { checkNewPassword } from '../auth/password-rules.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import type { IssuedSession, Sessions } from '../auth/sessions.js';
import { createAccount, EmailTakenError, normalizeEmail } from '../bootstrap/accounts.js';
import { ApiError } from '../http/errors.js';
import { ulid } from '../ids.js';
import type { Notifier } from '../notifications/notifier.js';
import type { BillingRecord, UserRecord } from '../storage/accounts.js';
import type { Storage } from '../storage/types.js';
import type { ActivityLog } from './activity.js';

export { TRIAL_DAYS };

/** A user as the API shows them. */
export function userAnswer(user: UserRecord) {
  return { _id: user.id, email: user.email, name: user.name, createdAt: user.createdAt };
}

/** A billing account as the API shows it. */
export function billingAnswer(billing: BillingRecord, now = Date.now()): BillingAccount {
  return {
    _id: billing.id,
    plan: billing.plan as BillingAccount['plan'],
    credits: billing.credits,
    trialActive: billing.trialExpiresAt !== null && Date.parse(billing.trialExpiresAt) > now,
    trialExpiresAt: billing.trialExpiresAt,
    status: billing.status as BillingAccount['status'],
    tier: rateTierOf(billing, now),
  };
}

/** The answer of sign-up and sign-in. */
function sessionAnswer(user: UserRecord, session: IssuedSession) {
  return { user: userAnswer(user), token: session.token, expiresAt: session.expiresAt };
}

/** Sign-up, sign-in, sign-out and plan choice. */
export class AccountService {
  // A hash to check a password against when the e-mail is unknown, so that both answers take the same time.
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly sessions: Sessions,
    private readonly limiter: AuthLimiter,
    private readonly activity: ActivityLog,
    private readonly notifier: Notifier,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Creates the account (free plan, 14-day trial, default cluster) and signs the user in. */
  async signUp(input: { email: string; password: string; name: string }, client: ClientInfo) {
    await this.limiter.consume('signup', client.ip);
    await checkNewPassword(input.password);
    let ids: Awaited<ReturnType<typeof createAccount>>;
    try {
      ids = await createAccount(this.storage, { ...input, plan: 'free', trialDays: TRIAL_DAYS });
    } catch (error) {
      if (error instanceof EmailTakenError)
        throw new ApiError('conflict', 'An account with this e-mail already exists', { field: 'email' });
      throw error;
    }
    const user = {
      id: ids.userId,
      email: normalizeEmail(input.email),
      name: input.name,
      createdAt: ids.createdAt,
    };
    await this.activity.record(user.id, 'signup', client);
    return sessionAnswer(user, await this.sessions.start(user.id, client));
  }

  /**
   * Checks the password and starts a session. Unknown e-mail and wrong password give the same answer after the
   * same work; repeated failures of one e-mail from one address slow down, then lock the pair.
   */
  async signIn(input: { email: string; password: string }, client: ClientInfo) {
    const email = normalizeEmail(input.email);
    await this.limiter.consume('signin', client.ip);
    await this.limiter.checkLock(email, client.ip);
    const user = await this.storage.accounts.findByEmail(email);
    const valid = user
      ? await verifyPassword(input.password, user.passwordHash)
      : await verifyPassword(input.password, await this.dummy()).then(() => false);
    if (!user || !valid) {
      const outcome = await this.limiter.recordFailure(email, client.ip);
      if (user) await this.failed(user.id, client, outcome.lockedNow);
      await this.sleep(slowdownMs(outcome.failures));
      throw new ApiError('invalid_credentials');
    }
    await this.limiter.recordSuccess(email, client.ip);
    const { passwordHash: _hash, ...record } = user;
    return this.startSession(record, client);
  }

  /** Counts a sign-in attempt of another kind (provider callback, passkey) against the per-address limit. */
  countSignInAttempt(client: ClientInfo): Promise<void> {
    return this.limiter.consume('signin', client.ip);
  }

  /**
   * Signs in the user a provider vouches for: the one linked to the provider's subject, else the one with that
   * verified e-mail (then linked), else a new account (free plan, trial, default cluster, no password).
   */
  async signInWithIdentity(
    identity: { provider: string; subject: string; email: string; name: string },
    client: ClientInfo,
  ) {
    const method = { method: identity.provider };
    let userId = await this.storage.signIn.findIdentity(identity.provider, identity.subject);
    if (userId === null) {
      const email = normalizeEmail(identity.email);
      userId = (await this.storage.accounts.findByEmail(email))?.id ?? null;
      if (userId === null) {
        try {
          const seed = {
            email,
            name: identity.name,
            password: null,
            plan: 'free',
            trialDays: TRIAL_DAYS,
          } as const;
          userId = (await createAccount(this.storage, seed)).userId;
          await this.activity.record(userId, 'signup', client, method);
        } catch (error) {
          // Signed up at the same moment by another request: sign in to that account.
          if (!(error instanceof EmailTakenError)) throw error;
          userId = (await this.storage.accounts.findByEmail(email))!.id;
        }
      }
      await this.storage.signIn.linkIdentity({
        provider: identity.provider,
        subject: identity.subject,
        userId,
        email,
        createdAt: new Date().toISOString(),
      });
      await this.activity.record(userId, 'identity.linked', client, method);
    }
    const user = await this.storage.accounts.findUser(userId);
    if (!user) throw new Error(`Linked user ${userId} does not exist`);
    return this.startSession(user, client, method);
  }

  /**
   * The one way every sign-in method ends: notes a new address, writes `signin` to the activity log (with the
   * method when it is not a password) and starts a session.
   */
  async startSession(user: UserRecord, client: ClientInfo, details?: { method: string }) {
    const known = await this.storage.sessions.hasSignedInFrom(user.id, client.ip);
    if (!known) {
      await this.activity.record(user.id, 'signin.new_address', client, details);
      await this.notifier.raise(user.id, 'new_sign_in', {
        title: 'New sign-in',
        body: `Your account was signed in to from ${client.ip}, an address not seen before${client.userAgent ? ` (${client.userAgent})` : ''}. If this was not you, reset your password and end your sessions.`,
        link: '/api/logs/activity',
        data: { ip: client.ip, ...(details ?? {}) },
      });
    }
    await this.activity.record(user.id, 'signin', client, details);
    return sessionAnswer(user, await this.sessions.start(user.id, client));
  }

  private async failed(userId: string, client: ClientInfo, lockedNow: boolean): Promise<void> {
    await this.activity.record(userId, 'signin.failed', client);
    if (!lockedNow) return;
    await this.activity.record(userId, 'signin.locked', client);
    await this.notifier.raise(userId, 'account_locked', {
      title: 'Sign-in locked',
      body: `Sign-in to your account from ${client.ip} is locked after repeated failed attempts. If this was not you, someone may be guessing your password.`,
      link: '/api/logs/activity',
      data: { ip: client.ip },
    });
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(`dummy-${ulid()}`);
    return this.dummyHash;
  }

  /** Ends this session. */
  async logout(userId: string, sessionId: string, client: ClientInfo) {
    const ended = await this.storage.sessions.revoke(sessionId, userId, new Date().toISOString());
    await this.activity.record(userId, 'logout', client);
    return { sessionsEnded: ended ? 1 : 0 };
  }

  /** Ends every session of the user. */
  async logoutAll(userId: string, client: ClientInfo) {
    const ended = await this.storage.sessions.revokeAll(userId, new Date().toISOString());
    await this.activity.record(userId, 'logout_all', client, { sessionsEnded: ended });
    return { sessionsEnded: ended };
  }

  async user(userId: string): Promise<ReturnType<typeof userAnswer>> {
    const user = await this.storage.accounts.findUser(userId);
    if (!user) throw new ApiError('unauthorized', 'Invalid session token');
    return userAnswer(user);
  }

  /** The user's billing account as the API shows it, or null when they have none. */
  async billing(userId: string) {
    const billing = await this.storage.accounts.billing(userId);
    return billing ? billingAnswer(billing) : null;
  }

  /** Switches the plan; the enterprise tier is an operator's decision and not on offer here. */
  async choosePlan(userId: string, plan: string, client: ClientInfo) {
    const billing = await this.storage.accounts.setPlan(userId, plan, new Date().toISOString());
    if (!billing) throw new Error(`User ${userId} has no billing account`);
    await this.activity.record(userId, 'plan.selected', client, { plan });
    return billingAnswer(billing);
  }
}
