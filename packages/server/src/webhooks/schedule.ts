const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The delays of API.md between a failed attempt and the next: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

const UNITS: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR };

/** Parses `5s,5m,30m,2h` (units ms, s, m, h) into milliseconds. */
export function parseSchedule(text: string): number[] {
  return text.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h)\s*$/.exec(part);
    if (!match)
      throw new Error(`Invalid delay "${part}": expected a whole number with ms, s, m or h, e.g. 5m`);
    return Number(match[1]) * UNITS[match[2]!]!;
  });
}

/**
 * The delay before retry number `retry` (0 for the first), with ±10 % jitter so that deliveries failed
 * together do not come back together; undefined when the schedule is used up.
 */
export function retryDelay(
  schedule: readonly number[],
  retry: number,
  random = Math.random,
): number | undefined {
  const base = schedule[retry];
  if (base === undefined) return undefined;
  return Math.round(base * (0.9 + 0.2 * random()));
}
