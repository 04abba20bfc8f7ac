import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { formatBytes, formatCount } from '../../output/units.js';
import { type Run, withExamples } from '../command.js';
import { schemaClient } from './schema-client.js';

/** Options of `dp schema list` (none: the cluster comes from the global `--cluster`). */
export type SchemaListOptions = Record<string, never>;

/** `dp schema list`. */
export function newSchemaListCommand(f: Factory, run: Run<SchemaListOptions> = runSchemaList): Command {
  const command = new Command('list')
    .description('List the collections with their document count, size, validator and indexes')
    .action(() => run(f, {}));
  return withExamples(command, ['dp schema', 'dp schema list --json | jq ".data[].name"']);
}

/** A table on a terminal, one JSON collection per line when piped, `{ data }` with --json. */
export async function runSchemaList(f: Factory, _options: SchemaListOptions): Promise<void> {
  const { client, cluster } = await schemaClient(f);
  const answer = await attempt('list collections', client.schema.collections.list(cluster));
  const out = await f.output();
  if (out.json) return void (await out.writeJson(answer));
  if (!out.tty) {
    for (const collection of answer.data) await out.writeJsonLine(collection);
    return;
  }
  await out.writeTable(
    ['collection', 'documents', 'size', 'validator', 'indexes'],
    answer.data.map((c) => [
      c.name,
      formatCount(c.documentCount),
      formatBytes(c.storageBytes),
      c.validation?.level ?? '-',
      c.indexes.map((index) => index.name).join(', ') || '-',
    ]),
  );
  if (answer.data.length === 0) out.note('No collections yet');
}
