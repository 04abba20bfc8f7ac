/** Where the webhook machinery reads the time; tests pass their own to move it forward. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The system clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock time as ISO 8601 UTC, the form every stored timestamp has. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
