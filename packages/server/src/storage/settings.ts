/** What an account keeps as settings besides its name and IP allowlist; null means the default. */
export interface StoredSettings {
  timezone: string | null;
  sessionLifetimeHours: number | null;
  defaultClusterId: string | null;
}

/** A change of settings: each field present is written, null included (back to the default). */
export interface SettingsChange {
  name?: string;
  timezone?: string | null;
  sessionLifetimeHours?: number | null;
  defaultClusterId?: string | null;
  ipAllowlist?: readonly string[];
}

/** The settings of users (`/api/settings`). */
export interface UserSettingsStore {
  /** The stored settings of the user; every field null when none were ever set. */
  get(userId: string): Promise<StoredSettings>;
  /** Writes every field of `change` in one transaction. */
  update(userId: string, change: SettingsChange, now: string): Promise<void>;
  /** True when the user is a member of the cluster. */
  isMember(userId: string, clusterId: string): Promise<boolean>;
}
