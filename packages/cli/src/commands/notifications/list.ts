import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';

/** Options of `dp notifications list`. */
export interface NotificationsListOptions {
  unread?: boolean | undefined;
  limit?: number | undefined;
  skip?: number | undefined;
}

/** `dp notifications list`: the signed-in user's notifications, newest first. */
export function newNotificationsListCommand(
  f: Factory,
  run: Run<NotificationsListOptions> = runNotificationsList,
): Command {
  const command = new Command('list')
    .description('List your notifications, newest first')
    .option('--unread', 'only the unread ones')
    .option('--limit <n>', 'notifications to show, 1 to 1000 (default 50)', wholeNumber(1, 1000))
    .option('--skip <n>', 'notifications to skip', wholeNumber(0))
    .action((options: NotificationsListOptions) => run(f, options));
  return withExamples(command, ['dp notifications', 'dp notifications list --unread --json']);
}

/** A table on a terminal, one JSON notification per line when piped, the API's page with --json. */
export async function runNotificationsList(f: Factory, options: NotificationsListOptions): Promise<void> {
  const client = await sessionClient(f);
  const page = await attempt(
    'list your notifications',
    client.notifications.page({ unread: options.unread, limit: options.limit, skip: options.skip }),
  );
  const out = await f.output();
  if (out.json) return void (await out.writeJson(page));
  if (!out.tty) {
    for (const n of page.data) await out.writeJsonLine(n);
    return;
  }
  await out.writeTable(
    ['id', 'time', 'kind', 'title', 'read'],
    page.data.map((n) => [n._id, n.createdAt, n.kind, n.title, n.readAt === null ? 'no' : 'yes']),
  );
  out.note(`Showing ${page.data.length} of ${page.total}; ${page.unread} unread`);
}
