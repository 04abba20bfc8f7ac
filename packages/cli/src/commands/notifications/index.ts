import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newNotificationsListCommand } from './list.js';
import { newNotificationPreferencesCommand } from './preferences.js';
import { newNotificationsReadAllCommand, newNotificationsReadCommand } from './read.js';

/** `dp notifications …`: the signed-in user's notifications. `dp notifications` alone lists them. */
export function newNotificationsCommand(f: Factory): Command {
  const command = new Command('notifications')
    .description('Your notifications and where each kind goes (needs a session: `dp login`)')
    .addCommand(newNotificationsListCommand(f), { isDefault: true })
    .addCommand(newNotificationsReadCommand(f))
    .addCommand(newNotificationsReadAllCommand(f))
    .addCommand(newNotificationPreferencesCommand(f));
  return withExamples(command, [
    'dp notifications --unread',
    'dp notifications read-all',
    'dp notifications preferences new_sign_in --email on',
  ]);
}
