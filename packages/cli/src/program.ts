import { Command } from 'commander';
import { newBackupsCommand } from './commands/backups/index.js';
import { newBatchCommand } from './commands/batch/batch.js';
import { newBillingCommand } from './commands/billing/index.js';
import { newClustersCommand } from './commands/clusters/index.js';
import { withExamples } from './commands/command.js';
import { newCompletionCommand } from './commands/completion/completion.js';
import { newConfigCommand } from './commands/config/index.js';
import { newDataCommand } from './commands/data/index.js';
import { newFunctionsCommand } from './commands/functions/index.js';
import { newIndexesCommand } from './commands/indexes/index.js';
import { newIntelligenceCommand } from './commands/intelligence/index.js';
import { newJobsCommand } from './commands/jobs/index.js';
import { newKeysCommand } from './commands/keys/index.js';
import { newLoginCommand } from './commands/login/login.js';
import { newLogoutCommand } from './commands/logout/logout.js';
import { newLogsCommand } from './commands/logs/index.js';
import { newMetricsCommand } from './commands/metrics/index.js';
import { newNotificationsCommand } from './commands/notifications/index.js';
import { newProfilesCommand } from './commands/profiles/index.js';
import { newSchemaCommand } from './commands/schema/index.js';
import { newSqlCommand } from './commands/sql/sql.js';
import { newTriggersCommand } from './commands/triggers/index.js';
import { newUploadCommand } from './commands/upload/upload.js';
import { newWebhooksCommand } from './commands/webhooks/index.js';
import { newWhoamiCommand } from './commands/whoami/whoami.js';
import { ExitCode } from './errors/exit-codes.js';
import type { Factory, GlobalFlags } from './factory.js';
import { write } from './iostreams.js';
import { VERSION } from './version.js';

const ENVIRONMENT = `
Environment:
  DATAPLATFORM_PROFILE     profile to use (like --profile)
  DATAPLATFORM_BASE_URL    server address (like --base-url)
  DATAPLATFORM_API_KEY     API key (like --api-key)
  DATAPLATFORM_TOKEN       session token (like --token)
  DATAPLATFORM_CONFIG_DIR  where profiles are saved (default: your config directory)
  NO_COLOR                 set to anything to turn colour off

  A flag wins over a variable, a variable over the profile, the profile over the default.
  Exit status: 0 ok, 1 error, 2 usage, 3 no or refused credential, 4 not found, 5 forbidden,
  6 conflict, 7 server unreachable, 8 rate limited. Every command and status: docs/cli.md
`;

/** The root command with the global options, before any subcommand is added. */
export function newRootCommand(f: Factory, name = 'dp'): Command {
  const root = new Command(name)
    .description('Work with a dataplatform server from a terminal or a script')
    .version(VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .option('--profile <name>', 'use this saved profile')
    .option('--base-url <url>', 'server address (default http://localhost:5000)')
    .option('--api-key <key>', 'API key to send')
    .option('--token <token>', 'session token to send')
    .option('--cluster <id>', 'act on this cluster (X-Cluster-Id; with a session token, default: your first)')
    .option('--json', 'print JSON for scripts (shapes are stable)', false)
    .option('--no-color', 'never colour the output')
    .helpCommand(false)
    .showSuggestionAfterError()
    .exitOverride()
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (text) => void write(f.io.stdout, text),
      writeErr: (text) => void write(f.io.stderr, text),
      // With --json every failure is JSON on standard error, usage errors found while parsing included.
      outputError: (text, writeErr) =>
        writeErr(
          f.flags.json
            ? `${JSON.stringify({ error: { message: text.trim().replace(/^error: /, ''), exitCode: ExitCode.usage } })}\n`
            : text,
        ),
    })
    .hook('preAction', (_root, action) => {
      f.flags = globalFlags(action.optsWithGlobals());
    });
  return root;
}

/** The whole command tree of `dp`. New nouns are added here; see "How to add a command" in docs/architecture.md. */
export function createProgram(f: Factory, name = 'dp'): Command {
  const root = newRootCommand(f, name)
    .addCommand(newDataCommand(f))
    .addCommand(newSqlCommand(f))
    .addCommand(newBatchCommand(f))
    .addCommand(newUploadCommand(f))
    .addCommand(newJobsCommand(f))
    .addCommand(newKeysCommand(f))
    .addCommand(newClustersCommand(f))
    .addCommand(newBillingCommand(f))
    .addCommand(newFunctionsCommand(f))
    .addCommand(newTriggersCommand(f))
    .addCommand(newSchemaCommand(f))
    .addCommand(newIndexesCommand(f))
    .addCommand(newBackupsCommand(f))
    .addCommand(newIntelligenceCommand(f))
    .addCommand(newWebhooksCommand(f))
    .addCommand(newLogsCommand(f))
    .addCommand(newMetricsCommand(f))
    .addCommand(newNotificationsCommand(f))
    .addCommand(newConfigCommand(f))
    .addCommand(newProfilesCommand(f))
    .addCommand(newLoginCommand(f))
    .addCommand(newLogoutCommand(f))
    .addCommand(newWhoamiCommand(f))
    .addCommand(newCompletionCommand(f))
    .addHelpText('after', ENVIRONMENT);
  withExamples(root, [
    'dp login --email ada@example.com',
    'dp config set api-key svc_…',
    'dp data list orders --sort -total --limit 10',
    `dp sql "SELECT customer, total FROM orders WHERE total > ?" --param 100`,
  ]);
  inheritSettings(root);
  return root;
}

/** Gives every subcommand the root's output, exit and help settings (commander copies them only for `.command()`). */
export function inheritSettings(command: Command): void {
  for (const sub of command.commands) {
    sub.copyInheritedSettings(command);
    inheritSettings(sub);
  }
}

function globalFlags(options: Record<string, unknown>): GlobalFlags {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    profile: text(options.profile),
    baseUrl: text(options.baseUrl),
    apiKey: text(options.apiKey),
    token: text(options.token),
    cluster: text(options.cluster),
    json: options.json === true,
    color: options.color !== false,
  };
}
