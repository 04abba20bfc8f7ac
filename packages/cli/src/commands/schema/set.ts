import { Command, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { readJsonObject } from '../../input/source.js';
import { type Run, withExamples } from '../command.js';
import { schemaClient } from './schema-client.js';

/** Options of `dp schema set`. */
export interface SchemaSetOptions {
  collection: string;
  /** A file name, `-` for standard input, or the JSON itself. */
  schema: string;
  /** The level; the file's own (a validator printed by `dp schema get`) or the server's default, strict, when unset. */
  level?: 'strict' | 'off' | undefined;
}

/** `dp schema set <collection> <schema.json>`. */
export function newSchemaSetCommand(f: Factory, run: Run<SchemaSetOptions> = runSchemaSet): Command {
  const command = new Command('set')
    .description("Set or replace a collection's validator (JSON Schema draft 2020-12)")
    .argument('<collection>', 'collection name')
    .argument(
      '<schema>',
      'a JSON file: a JSON Schema, or what `dp schema get` or `dp schema infer --json` print; `-` reads standard input',
    )
    .addOption(
      new Option(
        '--level <level>',
        'strict refuses writes that do not match (default); off keeps it unused',
      ).choices(['strict', 'off']),
    )
    .action((collection: string, schema: string, options: { level?: 'strict' | 'off' }) =>
      run(f, { collection, schema, level: options.level }),
    );
  return withExamples(command, [
    'dp schema set orders orders.schema.json',
    'dp schema infer orders > s.json && dp schema set orders s.json --level off',
    `dp schema set users '{"type":"object","required":["email"]}'`,
  ]);
}

/** Where the schema argument points: standard input, the JSON itself, or a file (`@file` as elsewhere). */
function sourceOf(value: string): string {
  if (value === '-' || value.startsWith('@') || /^\s*\{/.test(value)) return value;
  return `@${value}`;
}

/** A JSON Schema, or the `schema` of a validator or of an inferred schema, and the level the file names. */
function schemaOf(json: Record<string, unknown>): {
  schema: Record<string, unknown>;
  level?: 'strict' | 'off';
} {
  const inner = json.schema;
  const wrapped = inner && typeof inner === 'object' && !Array.isArray(inner) && !('$schema' in json);
  if (!wrapped) return { schema: json };
  const level = json.level === 'strict' || json.level === 'off' ? json.level : undefined;
  return { schema: inner as Record<string, unknown>, ...(level ? { level } : {}) };
}

/** Reads the schema, sends it, prints the validator (JSON with --json or piped; a confirmation on a terminal). */
export async function runSchemaSet(f: Factory, options: SchemaSetOptions): Promise<void> {
  const json = await readJsonObject(f.io, sourceOf(options.schema), 'schema');
  const { schema, level: fileLevel } = schemaOf(json);
  const level = options.level ?? fileLevel;
  const { client, cluster } = await schemaClient(f);
  const validator = await attempt(
    `set the validator of "${options.collection}"`,
    client.schema.validator.put(options.collection, { schema, ...(level ? { level } : {}) }, cluster),
  );
  const out = await f.output();
  if (out.json) await out.writeJson(validator);
  else if (!out.tty) await out.writeJsonLine(validator);
  out.success(`Validator of "${options.collection}" set (${validator.level})`);
}
