import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';

/** `dp notifications read <id>`: marks one notification read. */
export function newNotificationsReadCommand(
  f: Factory,
  run: Run<{ id: string }> = runNotificationsRead,
): Command {
  const command = new Command('read')
    .description('Mark a notification read')
    .argument('<id>', 'the notification id (`dp notifications` lists them)')
    .action((id: string) => run(f, { id }));
  return withExamples(command, ['dp notifications read ntf_01J…']);
}

export async function runNotificationsRead(f: Factory, options: { id: string }): Promise<void> {
  const client = await sessionClient(f);
  const read = await attempt(`mark notification "${options.id}" read`, client.notifications.read(options.id));
  const out = await f.output();
  if (out.json || !out.tty) return void (await out.writeJson(read));
  out.success(`Marked "${read.title}" read`);
}

/** `dp notifications read-all`: marks every unread notification read. */
export function newNotificationsReadAllCommand(
  f: Factory,
  run: Run<Record<string, never>> = runNotificationsReadAll,
): Command {
  const command = new Command('read-all')
    .description('Mark every unread notification read')
    .action(() => run(f, {}));
  return withExamples(command, ['dp notifications read-all']);
}

export async function runNotificationsReadAll(f: Factory): Promise<void> {
  const client = await sessionClient(f);
  const done = await attempt('mark your notifications read', client.notifications.readAll());
  const out = await f.output();
  if (out.json || !out.tty) return void (await out.writeJson(done));
  out.success(`Marked ${done.read} notification${done.read === 1 ? '' : 's'} read`);
}
