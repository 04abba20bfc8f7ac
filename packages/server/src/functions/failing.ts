import { FUNCTION_LIMITS } from '@dataplatform/contract';
import type { Notifier } from '../notifications/notifier.js';
import type { ActivityLog } from '../services/activity.js';
import type { FunctionRow, InvocationRow } from '../storage/functions.js';
import type { Storage } from '../storage/types.js';

/** The activity log's client of what the server notices on its own: no request, no address. */
const NO_CLIENT = { ip: '', userAgent: null };

/** Where a failing function is told. */
export interface FailingNotices {
  activity: ActivityLog;
  notifier: Notifier;
}

/**
 * Tells the owner of the function's cluster (a `function_failing` notification, and the same entry in the
 * activity log as its history) when this failed
 * invocation makes `FUNCTION_LIMITS.failingStreak` failures in a row. The streak is counted at the invocation's own
 * place in the history, so of several runs that fail at once exactly one reaches the count, and a longer streak
 * is told once.
 */
export async function noticeFailing(
  storage: Storage,
  notices: FailingNotices,
  fn: FunctionRow,
  failed: InvocationRow,
): Promise<void> {
  const streak = FUNCTION_LIMITS.failingStreak;
  // Newest first; room for runs recorded alongside this one.
  const { rows } = await storage.functions.invocations(fn.id, 2 * streak + 1, 0);
  const at = rows.findIndex((row) => row.id === failed.id);
  if (at < 0) return;
  const upToHere = rows.slice(at, at + streak + 1);
  const ok = upToHere.findIndex((row) => row.status === 'ok');
  if ((ok === -1 ? upToHere.length : ok) !== streak) return;
  const cluster = await storage.clusters.find(fn.clusterId);
  if (cluster === null) return;
  const facts = {
    functionId: fn.id,
    name: fn.name,
    clusterId: fn.clusterId,
    failures: streak,
    lastError: failed.error?.message ?? failed.status,
  };
  await notices.activity.record(cluster.ownerId, 'function_failing', NO_CLIENT, facts);
  await notices.notifier.raise(cluster.ownerId, 'function_failing', {
    title: 'Function failing',
    body: `Function "${fn.name}" failed ${streak} times in a row; the last error: ${facts.lastError}`,
    link: `/api/functions/${fn.id}/invocations`,
    data: facts,
  });
}
