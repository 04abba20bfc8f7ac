import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, parseSchedule, retryDelay } from './schedule.js';

describe('the retry schedule', () => {
  it('is the one of API.md: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual(parseSchedule('5s,5m,30m,2h,5h,10h,14h,20h,24h'));
  });

  it('parses delays with units and refuses anything else', () => {
    expect(parseSchedule('100ms, 2s,1m')).toEqual([100, 2000, 60_000]);
    expect(() => parseSchedule('5')).toThrow(/Invalid delay/);
    expect(() => parseSchedule('5d')).toThrow(/Invalid delay/);
  });

  it('adds ±10 % jitter and ends when the schedule is used up', () => {
    expect(retryDelay([1000], 0, () => 0)).toBe(900);
    expect(retryDelay([1000], 0, () => 0.5)).toBe(1000);
    expect(retryDelay([1000], 0, () => 0.999999)).toBe(1100);
    expect(retryDelay([1000], 1)).toBeUndefined();
  });
});
