import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { confirm } from '../../input/confirm.js';
import { type Run, withExamples } from '../command.js';

/** Options of `dp data delete`. */
export interface DeleteOptions {
  collection: string;
  id: string;
  idempotencyKey?: string | undefined;
  /** `--yes`: delete without asking (needed when standard input is not a terminal). */
  yes?: boolean | undefined;
}

/** `dp data delete <collection> <id>`. */
export function newDeleteCommand(f: Factory, run: Run<DeleteOptions> = runDelete): Command {
  const command = new Command('delete')
    .description('Delete one document')
    .argument('<collection>', 'collection name')
    .argument('<id>', 'document id')
    .option(
      '--idempotency-key <key>',
      'send this Idempotency-Key, so running the command again answers the same',
    )
    .option('-y, --yes', 'delete without asking; a script must pass it')
    .action((collection: string, id: string, options: { idempotencyKey?: string; yes?: boolean }) =>
      run(f, { collection, id, ...options }),
    );
  return withExamples(command, [
    'dp data delete orders o-1              # asks first on a terminal',
    'dp data delete orders o-1 --yes --json',
  ]);
}

/**
 * Asks first (or takes --yes); prints nothing on success unless --json (`{ "_id", "deleted": true }`); a terminal
 * gets a confirmation.
 */
export async function runDelete(
  f: Factory,
  { collection, id, idempotencyKey, yes }: DeleteOptions,
): Promise<void> {
  await confirm(f.io, { yes, action: `delete document "${id}" of "${collection}"` });
  const client = await f.client();
  const answer = await attempt(
    `delete document "${id}" of "${collection}"`,
    client.data.delete(collection, id, { idempotencyKey }),
  );
  const out = await f.output();
  if (out.json) await out.writeJson(answer);
  out.success(`Deleted ${answer._id} from "${collection}"`);
}
