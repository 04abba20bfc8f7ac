import type { ClusterRole } from '@dataplatform/contract';
/** A new session of a signed-in user. */
export interface NewSession {
  id: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  ip: string;
  userAgent: string | null;
}

/** A stored session. */
export interface SessionRecord {
  id: string;
  userId: string;
  expiresAt: string;
  revokedAt: string | null;
}

/** What a session token on a data route acts with: the session, the cluster, and the owner's plan. */
export interface SessionForData extends SessionRecord {
  /** The cluster asked for (or the user's default cluster) when the user is a member, with their role; else null. */
  cluster: { id: string; status: string; role: ClusterRole; billingStatus: string } | null;
  billing: { plan: string; trialExpiresAt: string | null; enterprise: boolean } | null;
}

/** An entry of a user's activity log. */
export interface ActivityRecord {
  id: string;
  userId: string;
  action: string;
  createdAt: string;
  ip: string;
  userAgent: string | null;
  details: Record<string, unknown>;
}

/** A password-reset completion: the token's hash, the new password hash and the entry to log, applied at once. */
export interface PasswordResetInput {
  tokenHash: string;
  passwordHash: string;
  now: string;
  activity: Omit<ActivityRecord, 'userId'>;
}

/**
 * Sessions, password-reset tokens and the activity log. A session is ended by setting `revoked_at`, so an ended
 * session's token is refused by every instance at once.
 */
export interface SessionStore {
  create(session: NewSession): Promise<void>;
  find(sessionId: string): Promise<SessionRecord | null>;
  /** The session together with the cluster a data request acts on (`clusterId`, else the default) and the plan. */
  findForData(sessionId: string, clusterId: string | null): Promise<SessionForData | null>;
  /** Ends one session of the user; true when it was still open. */
  revoke(sessionId: string, userId: string, now: string): Promise<boolean>;
  /** Ends every open session of the user; returns how many. */
  revokeAll(userId: string, now: string): Promise<number>;
  /** Stores a reset token's hash, valid until `expiresAt`. */
  createReset(reset: {
    tokenHash: string;
    userId: string;
    createdAt: string;
    expiresAt: string;
  }): Promise<void>;
  /**
   * In one transaction: uses up the reset token (unknown, used or expired: null and nothing changes), sets the
   * password, ends every session, clears the IP allowlist and logs the activity. Returns the user and the sessions ended.
   */
  completeReset(input: PasswordResetInput): Promise<{ userId: string; sessionsEnded: number } | null>;
  addActivity(entry: ActivityRecord): Promise<void>;
  listActivity(
    userId: string,
    page: { limit: number; skip: number },
  ): Promise<{ rows: ActivityRecord[]; total: number }>;
  /** True when the user has signed up or signed in from this address before. */
  hasSignedInFrom(userId: string, ip: string): Promise<boolean>;
  /** Deletes sessions that expired or were ended, and reset tokens that expired, before `before`; returns how many. */
  purgeEnded(before: string): Promise<number>;
}
