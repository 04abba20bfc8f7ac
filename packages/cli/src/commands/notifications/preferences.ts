import type { NotificationPreferences } from '@dataplatform/sdk';
import { Command, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';

/** Options of `dp notifications preferences`. */
export interface NotificationPreferencesOptions {
  kind?: string | undefined;
  inApp?: 'on' | 'off' | undefined;
  email?: 'on' | 'off' | undefined;
}

/** `dp notifications preferences [kind]`: shows where each kind goes, or changes one kind's channels. */
export function newNotificationPreferencesCommand(
  f: Factory,
  run: Run<NotificationPreferencesOptions> = runNotificationPreferences,
): Command {
  const command = new Command('preferences')
    .description('Show where each kind of notification goes, or change a kind with --in-app and --email')
    .argument('[kind]', 'the kind to change, such as new_sign_in (the list shows every kind)')
    .addOption(new Option('--in-app <on|off>', 'list it in the app and on the stream').choices(['on', 'off']))
    .addOption(new Option('--email <on|off>', 'e-mail it to your address').choices(['on', 'off']))
    .action((kind: string | undefined, options: Omit<NotificationPreferencesOptions, 'kind'>) =>
      run(f, { kind, ...options }),
    );
  return withExamples(command, [
    'dp notifications preferences',
    'dp notifications preferences backup_failed --email on',
  ]);
}

export async function runNotificationPreferences(
  f: Factory,
  options: NotificationPreferencesOptions,
): Promise<void> {
  const client = await sessionClient(f);
  let preferences: NotificationPreferences = await attempt(
    'read your notification preferences',
    client.notifications.preferences(),
  );
  const { kind, inApp, email } = options;
  if (kind !== undefined && (inApp !== undefined || email !== undefined)) {
    // An unknown kind has no current channels; the server refuses it (400 `validation_error`).
    const current = (preferences as Record<string, { inApp: boolean; email: boolean } | undefined>)[kind];
    const channels = {
      inApp: inApp === undefined ? (current?.inApp ?? true) : inApp === 'on',
      email: email === undefined ? (current?.email ?? false) : email === 'on',
    };
    preferences = await attempt(
      `change the preferences of ${kind}`,
      client.notifications.setPreferences({ [kind]: channels } as Record<
        keyof NotificationPreferences,
        typeof channels
      >),
    );
  }
  const out = await f.output();
  if (out.json || !out.tty) return void (await out.writeJson(preferences));
  const onOff = (on: boolean) => (on ? 'on' : 'off');
  await out.writeTable(
    ['kind', 'in app', 'e-mail'],
    Object.entries(preferences as Record<string, { inApp: boolean; email: boolean }>).map(([name, c]) => [
      name,
      onOff(c.inApp),
      onOff(c.email),
    ]),
  );
}
