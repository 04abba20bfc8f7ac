/** A new account: a user, their billing account and their default cluster. */
export interface NewAccount {
  user: { id: string; email: string; name: string; passwordHash: string; createdAt: string };
  billing: { id: string; plan: string; trialExpiresAt: string | null; enterprise: boolean };
  cluster: { id: string; name: string; region: string; tier: string };
}

/** A user as the API shows them (never with the password hash). */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  createdAt: string;
}

/** A user with what sign-in needs to check a password. */
export interface UserCredentials extends UserRecord {
  passwordHash: string;
}

/** A billing account as stored. */
export interface BillingRecord {
  id: string;
  plan: string;
  credits: number;
  trialExpiresAt: string | null;
  enterprise: boolean;
  status: string;
}

/** Users, billing accounts and clusters. */
export interface AccountStore {
  /** Creates the account; `email_taken` when a user already has that e-mail (nothing is created then). */
  create(account: NewAccount): Promise<'created' | 'email_taken'>;
  countUsers(): Promise<number>;
  /** The user with this e-mail (stored lower-case), with their password hash; null when there is none. */
  findByEmail(email: string): Promise<UserCredentials | null>;
  findUser(userId: string): Promise<UserRecord | null>;
  billing(userId: string): Promise<BillingRecord | null>;
  /**
   * Switches the user's billing account to `plan` and keeps the change, made at `changedAt`, in its plan history;
   * returns the account, or null when the user has none.
   */
  setPlan(userId: string, plan: string, changedAt: string): Promise<BillingRecord | null>;
  /** The IP allowlist of the user; empty when none is set. */
  ipAllowlist(userId: string): Promise<string[]>;
  setIpAllowlist(userId: string, entries: readonly string[], now: string): Promise<void>;
  /**
   * The cluster a new key of this user goes to: `clusterId` when the user owns it, the user's first cluster when
   * `clusterId` is null; null when the user owns no such cluster.
   */
  ownedCluster(userId: string, clusterId: string | null): Promise<string | null>;
}
