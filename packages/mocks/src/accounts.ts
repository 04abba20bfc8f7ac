import {
  allowlistUpdate,
  checkAllowlistAccess,
  RESET_LINK_MINUTES,
  rateTierOf,
  type SettingsPatch,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import { ClusterModel, planOf } from './clusters.js';
import { DeviceModel } from './devices.js';
import { FunctionModel } from './functions.js';
import { createIdGenerator, randomToken } from './ids.js';
import { NotificationModel } from './notifications.js';
import { PasskeyModel } from './passkeys.js';
import { RequestLogModel } from './request-logs.js';
import { TriggerModel } from './triggers.js';

/** Where a request comes from: `X-Forwarded-For` when sent (the mocks trust it), else 127.0.0.1. */
export interface MockClient {
  ip: string;
  userAgent: string | null;
}

/** A message the mock server "sent": what the server would mail, with the reset token for convenience. */
export interface MockMail {
  to: string;
  subject: string;
  text: string;
  /** The reset token of a password-reset message. */
  resetToken?: string;
  /** The token of a cluster invitation. */
  invitationToken?: string;
}

/** A signed-in session of a mock user. */
export interface MockSession {
  id: string;
  userId: string;
  expiresAt: string;
}

interface MockUser {
  id: string;
  email: string;
  name: string;
  password: string;
  createdAt: string;
  billing: { id: string; plan: string; trialExpiresAt: string };
  allowlist: string[];
  activity: ActivityEntry[];
  /** Settings left null keep their defaults. */
  settings: { timezone: string | null; sessionLifetimeHours: number | null; defaultClusterId: string | null };
}

interface ActivityEntry {
  _id: string;
  action: string;
  createdAt: string;
  ip: string;
  userAgent: string | null;
  details: Record<string, unknown>;
}

/** Sessions last a week, as on the reference server by default. */
const SESSION_MS = 7 * 86_400_000;
const TRIAL_MS = 14 * 86_400_000;
/** Failed sign-ins in a row of one e-mail from one address that lock the pair, and for how long (the server's defaults). */
const LOCK_AFTER_FAILURES = 10;
const LOCK_MS = 15 * 60_000;

/**
 * A few of the most common passwords, refused as the server refuses its whole list (about 18 000 entries, which
 * the mocks do not carry): enough to test how a client shows the refusal.
 */
const COMMON_PASSWORDS = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyuiop',
  'iloveyou',
  'sunshine',
  'football',
  'baseball',
  'princess',
  'trustno1',
  'welcome1',
  'letmein1',
]);

function commonPasswordError(): ApiError {
  return new ApiError(
    'validation_error',
    'Invalid body field "password": this password is too common; choose another',
    { in: 'body', field: 'password', reason: 'common' },
  );
}

/** Users, sessions, reset tokens, activity and allowlists of a mock instance, with the server's rules. */
export class AccountModel {
  readonly #users = new Map<string, MockUser>();
  readonly #sessions = new Map<string, MockSession & { revoked: boolean }>();
  /** Failed sign-ins in a row by `email|address`, and until when the pair is locked. */
  readonly #failures = new Map<string, { count: number; lockedUntil: number }>();
  readonly #resets = new Map<string, { userId: string; expiresAt: number; used: boolean }>();
  readonly #outbox: MockMail[] = [];
  readonly #id = createIdGenerator();
  /** The users' passkeys. */
  readonly passkeys = new PasskeyModel(this);
  /** Device sign-ins (RFC 8628). */
  readonly devices = new DeviceModel(this);
  /** The users' clusters. */
  readonly clusters = new ClusterModel();
  /** Functions of the users' clusters (stored, never run). */
  readonly functions = new FunctionModel();
  /** Triggers of the users' clusters (nothing fires on its own). */
  readonly triggers = new TriggerModel(this.functions);
  /** Every request answered, for `/api/logs/requests`. */
  readonly requestLogs = new RequestLogModel();
  /** The users' notifications and their preferences. */
  readonly notifications = new NotificationModel();

  /** Forgets every user, session and message. */
  clear(): void {
    this.#users.clear();
    this.#sessions.clear();
    this.#failures.clear();
    this.#resets.clear();
    this.#outbox.length = 0;
    this.passkeys.clear();
    this.devices.clear();
    this.clusters.clear();
    this.functions.clear();
    this.triggers.clear();
    this.requestLogs.clear();
  }

  /** Records a message as sent (the clusters' invitations). */
  send(mail: MockMail): void {
    this.#outbox.push(mail);
  }

  /** Copies of the messages sent so far, oldest first. */
  outbox(): MockMail[] {
    return this.#outbox.map((mail) => ({ ...mail }));
  }

  signUp(body: { email: string; password: string; name: string }, client: MockClient) {
    const email = body.email.trim().toLowerCase();
    if (COMMON_PASSWORDS.has(body.password.toLowerCase())) throw commonPasswordError();
    if (this.#users.has(email))
      throw new ApiError('conflict', 'An account with this e-mail already exists', { field: 'email' });
    const now = new Date();
    const user: MockUser = {
      id: `usr_${this.#id()}`,
      email,
      name: body.name.trim(),
      password: body.password,
      createdAt: now.toISOString(),
      billing: {
        id: `bil_${this.#id()}`,
        plan: 'free',
        trialExpiresAt: new Date(now.getTime() + TRIAL_MS).toISOString(),
      },
      allowlist: [],
      settings: { timezone: null, sessionLifetimeHours: null, defaultClusterId: null },
      activity: [],
    };
    this.#users.set(email, user);
    this.#log(user, 'signup', client);
    return this.#start(user);
  }

  signIn(body: { email: string; password: string }, client: MockClient) {
    const email = body.email.trim().toLowerCase();
    const pair = `${email}|${client.ip}`;
    const lockedFor = (this.#failures.get(pair)?.lockedUntil ?? 0) - Date.now();
    if (lockedFor > 0) {
      throw new ApiError(
        'rate_limited',
        'Sign-in for this e-mail from this address is locked after repeated failures',
        undefined,
        { 'Retry-After': String(Math.ceil(lockedFor / 1000)) },
      );
    }
    const user = this.#users.get(email);
    if (!user || user.password !== body.password) {
      // As on the server: the failure that reaches the limit locks the pair of e-mail and address.
      const failures = (this.#failures.get(pair)?.count ?? 0) + 1;
      const lockedNow = failures >= LOCK_AFTER_FAILURES;
      this.#failures.set(pair, { count: failures, lockedUntil: lockedNow ? Date.now() + LOCK_MS : 0 });
      if (user) this.#log(user, 'signin.failed', client);
      if (user && lockedNow) {
        this.#log(user, 'signin.locked', client);
        this.notifications.raise(user.id, 'account_locked', {
          title: 'Sign-in locked',
          body: `Sign-in to your account from ${client.ip} is locked after repeated failed attempts.`,
          link: '/api/logs/activity',
        });
      }
      throw new ApiError('invalid_credentials');
    }
    this.#failures.delete(pair);
    if (!user.activity.some((e) => e.ip === client.ip && (e.action === 'signin' || e.action === 'signup'))) {
      this.#log(user, 'signin.new_address', client);
      this.notifications.raise(user.id, 'new_sign_in', {
        title: 'New sign-in',
        body: `Your account was signed in to from ${client.ip}, an address not seen before.`,
        link: '/api/logs/activity',
      });
    }
    this.#log(user, 'signin', client);
    return this.#start(user);
  }

  /** The session of a bearer token; 401 `session_expired` for an ended one, `unauthorized` for an unknown one. */
  verify(token: string): MockSession {
    const session = this.#sessions.get(token);
    if (!session) throw new ApiError('unauthorized', 'Invalid session token');
    if (session.revoked || Date.parse(session.expiresAt) <= Date.now()) throw new ApiError('session_expired');
    return { id: session.id, userId: session.userId, expiresAt: session.expiresAt };
  }

  user(userId: string) {
    return userAnswer(this.#byId(userId));
  }

  logout(session: MockSession, client: MockClient) {
    let ended = 0;
    for (const stored of this.#sessions.values()) {
      if (stored.id === session.id && !stored.revoked) {
        stored.revoked = true;
        ended++;
      }
    }
    this.#log(this.#byId(session.userId), 'logout', client);
    return { sessionsEnded: ended };
  }

  logoutAll(userId: string, client: MockClient) {
    const ended = this.#endAll(userId);
    this.#log(this.#byId(userId), 'logout_all', client, { sessionsEnded: ended });
    return { sessionsEnded: ended };
  }

  forgotPassword(email: string, client: MockClient) {
    const user = this.#users.get(email.trim().toLowerCase());
    if (user) {
      const token = randomToken(43);
      this.#resets.set(token, {
        userId: user.id,
        expiresAt: Date.now() + RESET_LINK_MINUTES * 60_000,
        used: false,
      });
      this.#log(user, 'password.reset_requested', client);
      this.#outbox.push({
        to: user.email,
        subject: 'Reset your dataplatform password',
        text: `Open this link within ${RESET_LINK_MINUTES} minutes to choose a new password:\nhttp://localhost:5000/reset-password?token=${token}\n`,
        resetToken: token,
      });
    }
    return { accepted: true as const };
  }

  resetPassword(body: { token: string; password: string }, client: MockClient) {
    if (COMMON_PASSWORDS.has(body.password.toLowerCase())) throw commonPasswordError();
    const reset = this.#resets.get(body.token);
    if (!reset || reset.used || reset.expiresAt <= Date.now()) {
      throw new ApiError('validation_error', 'The reset token is unknown, used or expired', {
        in: 'body',
        field: 'token',
      });
    }
    reset.used = true;
    const user = this.#byId(reset.userId);
    user.password = body.password;
    user.allowlist = [];
    const ended = this.#endAll(user.id);
    this.#log(user, 'password.reset', client);
    return { reset: true as const, sessionsEnded: ended };
  }

  /** The billing account as the API shows it. */
  billing(userId: string) {
    const { billing } = this.#byId(userId);
    const now = Date.now();
    return {
      _id: billing.id,
      plan: billing.plan,
      credits: 0,
      trialActive: Date.parse(billing.trialExpiresAt) > now,
      trialExpiresAt: billing.trialExpiresAt,
      status: 'active',
      tier: rateTierOf({ ...billing, enterprise: false }, now),
    };
  }

  choosePlan(userId: string, plan: string, client: MockClient) {
    const user = this.#byId(userId);
    user.billing.plan = plan;
    this.#log(user, 'plan.selected', client, { plan });
    return this.billing(userId);
  }

  activity(userId: string, limit: number, skip: number) {
    const entries = [...this.#byId(userId).activity].reverse();
    return { data: entries.slice(skip, skip + limit), total: entries.length, limit, skip };
  }

  ipAllowlist(userId: string, client: MockClient) {
    return { entries: [...this.#byId(userId).allowlist], clientIp: client.ip };
  }

  /** 403 `ip_blocked` when the user has an allowlist that leaves out the client. */
  checkAllowlist(userId: string, client: MockClient): void {
    const blocked = checkAllowlistAccess(client.ip, this.#byId(userId).allowlist);
    if (blocked) throw ApiError.fromViolation(blocked);
  }

  /** The settings as `GET /api/settings` answers them. */
  settings(userId: string) {
    const user = this.#byId(userId);
    return {
      account: { name: user.name, timezone: user.settings.timezone ?? 'UTC' },
      security: {
        ipAllowlist: [...user.allowlist],
        sessionLifetimeHours: user.settings.sessionLifetimeHours ?? SESSION_MS / 3_600_000,
      },
      data: { defaultClusterId: user.settings.defaultClusterId },
    };
  }

  /** Applies a merge patch of the settings, all of it or (when a part is refused) none. */
  updateSettings(userId: string, patch: SettingsPatch, client: MockClient) {
    const user = this.#byId(userId);
    let allowlist: string[] | undefined;
    if (patch.security?.ipAllowlist !== undefined) {
      const entries = allowlistUpdate(patch.security.ipAllowlist, client.ip);
      if (!Array.isArray(entries))
        throw new ApiError(entries.code, entries.message.replace('"entries"', '"security.ipAllowlist"'), {
          ...(entries.details as object),
          field: 'security.ipAllowlist',
        });
      allowlist = entries;
    }
    const clusterId = patch.data?.defaultClusterId;
    if (
      clusterId !== undefined &&
      clusterId !== null &&
      !this.clusters.membership(userId, planOf(user.billing), clusterId)
    )
      throw new ApiError(
        'validation_error',
        'Invalid body field "data.defaultClusterId": you are not a member of a cluster with this id',
        { in: 'body', field: 'data.defaultClusterId' },
      );
    if (patch.account?.name !== undefined) user.name = patch.account.name;
    if (patch.account?.timezone !== undefined) user.settings.timezone = patch.account.timezone;
    if (patch.security?.sessionLifetimeHours !== undefined)
      user.settings.sessionLifetimeHours = patch.security.sessionLifetimeHours;
    if (clusterId !== undefined) user.settings.defaultClusterId = clusterId;
    if (allowlist !== undefined) {
      user.allowlist = allowlist;
      this.#log(user, 'ip_allowlist.updated', client, { entries: allowlist });
    }
    return this.settings(userId);
  }

  setIpAllowlist(userId: string, requested: readonly string[], client: MockClient) {
    const entries = allowlistUpdate(requested, client.ip);
    if (!Array.isArray(entries)) throw ApiError.fromViolation(entries);
    const user = this.#byId(userId);
    user.allowlist = entries;
    this.#log(user, 'ip_allowlist.updated', client, { entries });
    return { entries, clientIp: client.ip };
  }

  /** A sign-in through a provider that approves at once: the provider's one mock person, made on first use. */
  signInWithProvider(provider: string, client: MockClient) {
    const email = `${provider}-user@example.com`;
    if (!this.#users.has(email))
      this.signUp({ email, password: randomToken(32), name: `${provider} user` }, client);
    return this.startSessionFor(this.#users.get(email)!.id, client, { method: provider });
  }

  /** Signs a user in by another method than a password (a passkey), as the server's one way to start a session. */
  startSessionFor(userId: string, client: MockClient, details: Record<string, unknown>) {
    const user = this.#byId(userId);
    if (!user.activity.some((e) => e.ip === client.ip && (e.action === 'signin' || e.action === 'signup')))
      this.#log(user, 'signin.new_address', client, details);
    this.#log(user, 'signin', client, details);
    return this.#start(user);
  }

  #start(user: MockUser) {
    const token = `mock_session_${randomToken(32)}`;
    const hours = user.settings.sessionLifetimeHours;
    const expiresAt = new Date(Date.now() + (hours === null ? SESSION_MS : hours * 3_600_000)).toISOString();
    this.#sessions.set(token, { id: `ses_${this.#id()}`, userId: user.id, expiresAt, revoked: false });
    return { user: userAnswer(user), token, expiresAt };
  }

  #endAll(userId: string): number {
    let ended = 0;
    for (const session of this.#sessions.values()) {
      if (session.userId === userId && !session.revoked) {
        session.revoked = true;
        ended++;
      }
    }
    return ended;
  }

  #byId(userId: string): MockUser {
    for (const user of this.#users.values()) if (user.id === userId) return user;
    throw new ApiError('unauthorized', 'Invalid session token');
  }

  #log(user: MockUser, action: string, client: MockClient, details: Record<string, unknown> = {}): void {
    user.activity.push({
      _id: `act_${this.#id()}`,
      action,
      createdAt: new Date().toISOString(),
      ip: client.ip,
      userAgent: client.userAgent,
      details,
    });
  }
}

function userAnswer(user: MockUser) {
  return { _id: user.id, email: user.email, name: user.name, createdAt: user.createdAt };
}
