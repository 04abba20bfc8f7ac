import type { ApiKeyCreate } from '@dataplatform/sdk';
import { Command, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { collect, type Run, withExamples } from '../command.js';
import { writeSecret } from './show.js';

/** Options of `dp keys create`. */
export interface KeysCreateOptions {
  name: string;
  scope: string[];
  cluster?: string | undefined;
  expires?: 'never' | '30d' | '90d' | '1y' | undefined;
  expiresAt?: string | undefined;
}

/** `dp keys create --name <name> --scope <scope>…`. */
export function newKeysCreateCommand(f: Factory, run: Run<KeysCreateOptions> = runKeysCreate): Command {
  const command = new Command('create')
    .description('Create an API key (needs a session: `dp login`); prints its secret, shown only once')
    .requiredOption('--name <name>', 'a label, 1 to 100 characters')
    .requiredOption('--scope <scope>', 'a scope the key holds, such as data:read (repeat for more)', collect)
    .option('--cluster <id>', 'one of your clusters (default: your default cluster)')
    .addOption(
      new Option('--expires <when>', 'expiry counted from now (default never)').choices([
        'never',
        '30d',
        '90d',
        '1y',
      ]),
    )
    .addOption(
      new Option('--expires-at <instant>', 'a custom expiry, an ISO 8601 instant').conflicts('expires'),
    )
    .action((options: KeysCreateOptions) => run(f, options));
  return withExamples(command, [
    'dp keys create --name CI --scope data:read --scope data:write --expires 90d',
    'KEY=$(dp keys create --name reports --scope data:read)',
  ]);
}

export async function runKeysCreate(f: Factory, options: KeysCreateOptions): Promise<void> {
  const client = await f.client();
  const created = await attempt(
    `create key "${options.name}"`,
    client.keys.create({
      name: options.name,
      // The server names an unknown scope in its answer (status 1), so the CLI keeps no list of its own.
      scopes: options.scope as ApiKeyCreate['scopes'],
      // `--cluster` may have been read as the global option of the same name.
      clusterId: options.cluster ?? f.flags.cluster,
      expiresIn: options.expires,
      expiresAt: options.expiresAt,
    }),
  );
  await writeSecret(await f.output(), created, 'Created');
}
