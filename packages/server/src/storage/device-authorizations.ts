/** A device sign-in (RFC 8628) waiting for, or holding, the person's decision. Both codes are kept hashed. */
export interface DeviceAuthorizationRecord {
  /** SHA-256 of the program's device code, hex. */
  deviceCodeHash: string;
  /** SHA-256 of the normalized user code (`XXXXXXXX`), hex. */
  userCodeHash: string;
  status: 'pending' | 'approved' | 'denied';
  /** Who approved; null until then. */
  userId: string | null;
  /** Seconds the program must wait between polls; grows with each `slow_down`. */
  interval: number;
  lastPolledAt: string | null;
  expiresAt: string;
  createdAt: string;
}

/** Device sign-ins: created by a program, decided by a signed-in person, handed out once. */
export interface DeviceAuthorizationStore {
  create(record: DeviceAuthorizationRecord): Promise<void>;
  /** The request with this device code, expired or not. */
  find(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | null>;
  /**
   * Decides the pending, unexpired request with this user code (approved for `userId`, or denied); false when
   * there is none, so a code is decided once.
   */
  decide(
    userCodeHash: string,
    decision: { status: 'approved'; userId: string } | { status: 'denied' },
    now: string,
  ): Promise<boolean>;
  /**
   * Records a poll at `now` with `interval`, when the last poll is still `previous` (compare and set): of two
   * polls at once, one sees false and is told to slow down.
   */
  recordPoll(
    deviceCodeHash: string,
    previous: string | null,
    now: string,
    interval: number,
  ): Promise<boolean>;
  /** Deletes and returns the approving user of an approved request: its session is handed out once. */
  takeApproved(deviceCodeHash: string): Promise<string | null>;
  delete(deviceCodeHash: string): Promise<void>;
  /** Deletes requests that expired before `before`; returns how many. */
  purge(before: string): Promise<number>;
}
