import { expect, vi } from 'vitest';
import { asUser } from './cluster-helpers.js';
import type { SignedUp, TestServer } from './helpers.js';

/** One run of a trigger, as its run history shows it. */
export interface Run {
  status: string;
  event: Record<string, unknown> | null;
  error: string | null;
}

/** The run history of triggers, read as `who`. */
export function triggerRuns(t: () => TestServer, who: () => SignedUp) {
  async function runsOf(id: string): Promise<Run[]> {
    const res = await asUser(t(), who(), 'GET', `/api/triggers/${id}/runs`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Run[] }).data;
  }

  /** The runs, newest first, once at least `count` of them have ended. */
  async function settled(id: string, count: number): Promise<Run[]> {
    let runs: Run[] = [];
    await vi.waitFor(
      async () => {
        runs = await runsOf(id);
        expect(runs.filter((r) => r.status !== 'queued').length).toBeGreaterThanOrEqual(count);
      },
      { timeout: 30_000, interval: 50 },
    );
    return runs;
  }

  return { runsOf, settled };
}
